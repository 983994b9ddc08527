//! The projection reducer of `@limecloud/agent-runtime-projection`.

pub mod collaboration;
pub mod patch;
pub mod subagents;
