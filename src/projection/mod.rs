//! The projection reducer of `@limecloud/agent-runtime-projection`.

pub mod coding;
pub mod collaboration;
pub mod patch;
pub mod replay;
pub mod snapshot;
pub mod subagents;
