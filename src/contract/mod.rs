//! The contract of `@limecloud/agent-ui-contracts`: event model, JS semantics, validators,
//! sequence verifier, turn-terminal helpers, constants and schemas, conformance fixtures.

pub mod constants;
pub mod event;
pub mod event_model;
pub mod fixtures;
pub mod fxhash;
pub mod js;
pub mod json;
pub mod names;
pub mod order;
pub mod reader;
pub mod record;
pub mod redact;
pub mod sequence;
pub mod tape;
pub mod terminal;
pub mod val;
pub mod validation;
