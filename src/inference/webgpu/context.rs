//! The GPU context: one wgpu device and queue, a cache of compiled compute pipelines, buffer helpers and an
//! error sink.
//!
//! wgpu's default reaction to a validation or out-of-memory error is a panic; rerankit instead records every
//! uncaptured error and [`Gpu::check`] turns them into an `INTERNAL` [`Error`] after each submission, so a GPU
//! failure becomes a CPU fallback, never a wrong answer.

use crate::{Error, Result};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// A compute device and everything cached on it.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The adapter's description (name, backend, driver), for `ranker.device` reports.
    pub adapter: wgpu::AdapterInfo,
    errors: Arc<Mutex<Vec<String>>>,
    pipelines: Mutex<HashMap<&'static str, Arc<wgpu::ComputePipeline>>>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("adapter", &self.adapter.name).field("backend", &self.adapter.backend).finish()
    }
}

impl Gpu {
    /// Opens the first adapter wgpu offers (Vulkan natively — lavapipe on machines without a GPU — WebGPU in
    /// browsers). `UNSUPPORTED` when there is none.
    pub async fn new() -> Result<Self> {
        // wgpu's browser backend panics when the global is neither a window nor a dedicated worker (Node, Deno,
        // workerd, service workers); ask first, so those runtimes get UNSUPPORTED and the CPU.
        #[cfg(target_arch = "wasm32")]
        if !wgpu::util::is_browser_webgpu_supported().await {
            return Err(Error::unsupported("webgpu: this runtime offers no WebGPU adapter (navigator.gpu is missing, or requestAdapter() gave none)"));
        }
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: None,
                ..Default::default()
            })
            .await
            .map_err(|e| Error::unsupported(format!("webgpu: no GPU adapter is available ({e})")))?;
        let info = adapter.get_info();
        // WebGPU's default limits (8 storage buffers per stage, 16 KiB of workgroup memory, 256 invocations per
        // workgroup) are what the kernels need; binding and buffer sizes go up to the adapter's, for large
        // embedding tables.
        let have = adapter.limits();
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: have.max_storage_buffer_binding_size,
            max_buffer_size: have.max_buffer_size,
            ..wgpu::Limits::default()
        };
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("rerankit"),
                required_features: wgpu::Features::empty(),
                required_limits: limits,
                ..Default::default()
            })
            .await
            .map_err(|e| Error::unsupported(format!("webgpu: cannot open a device on {:?} ({e})", info.name)))?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        Ok(Gpu { device, queue, adapter: info, errors, pipelines: Mutex::new(HashMap::new()) })
    }

    /// A one-line description of the adapter: `"llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)"`.
    pub fn describe(&self) -> String {
        format!("{} ({:?}, {:?})", self.adapter.name, self.adapter.backend, self.adapter.device_type)
    }

    /// Whether the adapter is a software rasteriser (lavapipe, SwiftShader, WARP).
    pub fn is_software(&self) -> bool {
        self.adapter.device_type == wgpu::DeviceType::Cpu
    }

    /// The compute pipeline for `key` (compiled from `source`, entry `main`), compiled once and cached.
    pub fn pipeline(&self, key: &'static str, source: impl FnOnce() -> String) -> Arc<wgpu::ComputePipeline> {
        let mut cache = self.pipelines.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .entry(key)
            .or_insert_with(|| {
                let module = self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(key),
                    source: wgpu::ShaderSource::Wgsl(source().into()),
                });
                Arc::new(self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(key),
                    layout: None,
                    module: &module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                }))
            })
            .clone()
    }

    /// A storage buffer holding `data` (f32 or u32 values as little-endian bytes; a multiple of 4 bytes).
    pub fn upload(&self, label: &str, data: &[u8]) -> wgpu::Buffer {
        let buffer = self.storage(label, data.len().div_ceil(4));
        if !data.is_empty() {
            self.queue.write_buffer(&buffer, 0, data);
        }
        buffer
    }

    /// A storage buffer of `f32` values.
    pub fn upload_f32(&self, label: &str, data: &[f32]) -> wgpu::Buffer {
        self.upload(label, &f32_bytes(data))
    }

    /// A storage buffer of `u32` values.
    pub fn upload_u32(&self, label: &str, data: &[u32]) -> wgpu::Buffer {
        self.upload(label, &u32_bytes(data))
    }

    /// An uninitialised storage buffer of `words` 4-byte values.
    pub fn storage(&self, label: &str, words: usize) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: (words.max(1) * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    }

    /// A buffer the CPU can map for reading, of `words` 4-byte values.
    pub fn staging(&self, label: &str, words: usize) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: (words.max(1) * 4) as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Fails with the first GPU error recorded since the last check.
    pub fn check(&self) -> Result<()> {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        if errors.is_empty() {
            return Ok(());
        }
        let all = std::mem::take(&mut *errors);
        Err(Error::internal(format!("webgpu: {} GPU error(s); first: {}", all.len(), all[0])))
    }

    /// Reads the first `words` f32 values of `staging` (a [`Gpu::staging`] buffer already filled by a submitted
    /// copy): maps it, waits (natively by polling the device, in browsers by yielding to the event loop), copies
    /// out and unmaps.
    pub async fn read(&self, staging: &wgpu::Buffer, words: usize) -> Result<Vec<f32>> {
        let bytes = (words * 4) as u64;
        let slot: Arc<Mutex<MapState>> = Arc::new(Mutex::new(MapState::default()));
        let s = slot.clone();
        staging.slice(..bytes.max(4)).map_async(wgpu::MapMode::Read, move |r| {
            let mut st = s.lock().unwrap_or_else(|p| p.into_inner());
            st.done = Some(r.map_err(|e| e.to_string()));
            if let Some(w) = st.waker.take() {
                w.wake();
            }
        });
        #[cfg(not(target_arch = "wasm32"))]
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::internal(format!("webgpu: waiting for the device failed ({e})")))?;
        MapFuture(slot).await.map_err(|e| Error::internal(format!("webgpu: cannot read results back ({e})")))?;
        self.check()?;
        let out = {
            let view = staging
                .slice(..bytes.max(4))
                .get_mapped_range()
                .map_err(|e| Error::internal(format!("webgpu: cannot read results back ({e})")))?;
            view[..words * 4].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
        };
        staging.unmap();
        Ok(out)
    }
}

#[derive(Default)]
struct MapState {
    done: Option<std::result::Result<(), String>>,
    waker: Option<Waker>,
}

struct MapFuture(Arc<Mutex<MapState>>);

impl Future for MapFuture {
    type Output = std::result::Result<(), String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut st = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match st.done.take() {
            Some(r) => Poll::Ready(r),
            None => {
                st.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// Little-endian bytes of f32 values.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of u32 values.
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs a future to completion on the current thread (native only). wgpu's native futures are ready at once or
/// after a device poll, which [`Gpu::read`] does itself, so a spin with a no-op waker suffices.
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}
