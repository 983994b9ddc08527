//! The contract of `@limecloud/agent-ui-contracts`: event model, JS semantics, validators.

pub mod event;
pub mod js;
pub mod redact;
pub mod val;
