//! Where a model runs: the device names, the default, and every fallback decided before a model loads. One
//! file owns them, so that the JS option, the Rust API and the messages agree (the fallbacks of a loaded model
//! — no adapter, unsupported graph, failed parity probe — are [`super::webgpu::GpuCrossEncoder`]'s, and are
//! reported through the same warning callback).

use super::Pooling;
use crate::error::{Error, Result};

/// Where a model should run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Device {
    /// tract on the CPU only: WebGPU is never touched. The default, because it is exact and available everywhere.
    #[default]
    Cpu,
    /// The GPU is wanted: every fallback to the CPU is reported as a warning.
    WebGpu,
    /// WebGPU when the runtime, the adapter and the model allow it, else the CPU; a runtime without WebGPU is no
    /// cause for a warning.
    Auto,
}

impl Device {
    pub const NAMES: [&'static str; 3] = ["cpu", "webgpu", "auto"];

    /// `"cpu"`, `"webgpu"` or `"auto"`; errors name `field`.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "cpu" => Ok(Device::Cpu),
            "webgpu" => Ok(Device::WebGpu),
            "auto" => Ok(Device::Auto),
            "gpu" | "cuda" | "wasm" => Err(Error::invalid(field, format!("{s:?} is not a device here: use \"webgpu\", \"cpu\" or \"auto\""))),
            other => Err(Error::invalid(field, format!("expected \"webgpu\", \"cpu\" or \"auto\", got {other:?}"))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::WebGpu => "webgpu",
            Device::Auto => "auto",
        }
    }
}

crate::deserialize_by_parse!(Device, |s| Device::parse("", s));

/// The decision before loading: whether to try the GPU, and the warning owed when a wanted GPU is not tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub device: Device,
    pub try_gpu: bool,
    pub warning: Option<String>,
}

/// Where a model asked to run on `device` starts: `runtime_has_webgpu` says whether the runtime exposes WebGPU to
/// this code (browsers and their workers; not Node, Deno or Workers), `pooling` is an embedder's pooling (the
/// WGSL pipeline ends in mean pooling).
pub fn place(device: Device, runtime_has_webgpu: bool, pooling: Option<Pooling>) -> Placement {
    let cpu = |warning: Option<String>| Placement { device, try_gpu: false, warning: warning.filter(|_| device == Device::WebGpu) };
    if device == Device::Cpu {
        return cpu(None);
    }
    if !cfg!(feature = "webgpu") {
        return cpu(Some("WebGPU unavailable, using the CPU: this build of rerankit has no WebGPU engine".into()));
    }
    if !runtime_has_webgpu {
        return cpu(Some("WebGPU unavailable, using the CPU: this runtime has no navigator.gpu (WebGPU runs in browsers and dedicated workers)".into()));
    }
    if let Some(pooling) = pooling.filter(|p| *p != Pooling::Mean) {
        return cpu(Some(format!("WebGPU embedders pool by mean; \"{}\" pooling runs on the CPU", pooling.as_str())));
    }
    Placement { device, try_gpu: true, warning: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_default_and_fallbacks() {
        assert_eq!(Device::default(), Device::Cpu);
        for name in Device::NAMES {
            assert_eq!(Device::parse("device", name).unwrap().as_str(), name);
        }
        assert!(Device::parse("device", "gpu").unwrap_err().message.contains("use \"webgpu\""));
        assert_eq!(place(Device::Cpu, true, None), Placement { device: Device::Cpu, try_gpu: false, warning: None });
        // "auto" falls back silently, "webgpu" with a warning
        assert_eq!(place(Device::Auto, false, None).warning, None);
        assert!(place(Device::WebGpu, false, None).warning.unwrap().contains("navigator.gpu"));
        let cls = place(Device::WebGpu, true, Some(Pooling::Cls));
        assert!(!cls.try_gpu && cls.warning.unwrap().contains("\"cls\" pooling"));
        assert_eq!(place(Device::Auto, true, Some(Pooling::Mean)).try_gpu, cfg!(feature = "webgpu"));
    }
}
