//! The projection reducer of `@limecloud/agent-runtime-projection`.

pub mod patch;
