//! The projection reducer of `@limecloud/agent-runtime-projection`.

pub mod coding;
pub mod coding_thread_items;
pub mod collaboration;
pub mod diagnostics;
pub mod events;
pub mod graph;
pub mod mcp_patch;
pub mod messages;
pub mod normalization;
pub mod patch;
pub mod projector;
pub mod read_model;
pub mod refs;
pub mod replay;
pub mod runtime;
pub mod state;
pub mod state_delta;
pub mod subagents;
pub mod templates;
pub mod timeline;
pub mod tool_lifecycle;
pub mod tool_surface;
pub mod view_rules;

pub use projector::{project, Projector};
pub use read_model::project_agent_runtime_read_model;
