//! Where a model runs: the device names, the default, and every fallback to the CPU with its message. One file
//! owns them, so that the JS option, the Rust API and the messages agree. The fallbacks decided before a model
//! loads are [`place`]'s; those of a loaded model (no adapter, unsupported graph, failed parity probe, GPU error)
//! happen in the engines (`super::engine`), which gives the [`Fallback`]'s message to the same
//! warning callback.

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
        return cpu(Some(Fallback::NotBuilt.message()));
    }
    if !runtime_has_webgpu {
        return cpu(Some(Fallback::NoRuntimeGpu.message()));
    }
    if let Some(pooling) = pooling.filter(|p| *p != Pooling::Mean) {
        return cpu(Some(Fallback::Pooling(pooling).message()));
    }
    Placement { device, try_gpu: true, warning: None }
}

/// Why a model that was to try WebGPU runs on the CPU. Each is reported once, through the model's warning
/// callback, and a model never goes back to the GPU.
#[derive(Debug, Clone, PartialEq)]
pub enum Fallback {
    /// This build of rerankit has no WebGPU engine (the `webgpu` feature is off).
    NotBuilt,
    /// The runtime exposes no `navigator.gpu` to this code (Node, Deno, Workers).
    NoRuntimeGpu,
    /// An embedder pooling other than mean (the WGSL pipeline ends in mean pooling).
    Pooling(Pooling),
    /// The GPU model could not be made: no adapter, or a graph the kernels do not cover (`UNSUPPORTED`).
    Unavailable(String),
    /// The parity probe's outputs differ from the CPU's by more than the tolerance.
    ProbeMismatch { adapter: String, max_abs_diff: f32, tolerance: f32 },
    /// The parity probe batch failed on the GPU.
    ProbeFailed(String),
    /// A GPU error or non-finite output at a later batch (that batch is recomputed on the CPU).
    Failed(String),
}

impl Fallback {
    /// The warning the caller hears.
    pub fn message(&self) -> String {
        match self {
            Fallback::NotBuilt => "WebGPU unavailable, using the CPU: this build of rerankit has no WebGPU engine".into(),
            Fallback::NoRuntimeGpu => {
                "WebGPU unavailable, using the CPU: this runtime has no navigator.gpu (WebGPU runs in browsers and dedicated workers)".into()
            }
            Fallback::Pooling(p) => format!("WebGPU embedders pool by mean; \"{}\" pooling runs on the CPU", p.as_str()),
            Fallback::Unavailable(why) => format!("WebGPU unavailable, using the CPU: {why}"),
            Fallback::ProbeMismatch { adapter, max_abs_diff, tolerance } => {
                format!("WebGPU parity probe failed on {adapter} (max |GPU − CPU| = {max_abs_diff:.3e} > {tolerance:.0e}); using the CPU")
            }
            Fallback::ProbeFailed(why) => format!("WebGPU probe batch failed ({why}); using the CPU"),
            Fallback::Failed(why) => format!("WebGPU failed ({why}); using the CPU from now on"),
        }
    }
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
