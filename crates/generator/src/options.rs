//! The generator's tunables, named and defaulted as `DEFAULT_OPTIONS` of the JS generator.

use super::clock::parse_iso_utc;
use serde_json::Value;

/// Options of a generated stream. Ranges are inclusive `[min, max]` of non-negative integers;
/// rates are probabilities per turn or per tool call (values outside `[0, 1]` act as 0 or 1).
///
/// Build with [`GenOptions::default`] or [`GenOptions::from_json`]; the fields are checked
/// there, so every value of this type generates in time proportional to its output.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    pub(crate) start_time: String,
    pub(crate) start_ms: i64,
    pub(crate) runtime_id: String,
    pub(crate) schema_version: String,
    pub(crate) model: String,
    pub(crate) reasoning_deltas: (i64, i64),
    pub(crate) reasoning_chars: (i64, i64),
    pub(crate) message_chars: (i64, i64),
    pub(crate) chunk_chars: (i64, i64),
    pub(crate) tools_per_turn: (i64, i64),
    pub(crate) tool_progress: (i64, i64),
    pub(crate) tool_failure_rate: f64,
    pub(crate) action_rate: f64,
    pub(crate) subagent_rate: f64,
    pub(crate) turn_failure_rate: f64,
    pub(crate) state_delta_rate: f64,
}

const DEFAULT_START: &str = "2026-06-10T00:00:00.000Z";
/// 2026-06-10T00:00:00.000Z in milliseconds since the epoch.
const DEFAULT_START_MS: i64 = 1_781_049_600_000;

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            start_time: DEFAULT_START.to_string(),
            start_ms: DEFAULT_START_MS,
            runtime_id: "agent_bench_runtime".to_string(),
            schema_version: "lime-runtime-event/v0.1".to_string(),
            model: "bench-model-1".to_string(),
            reasoning_deltas: (2, 6),
            reasoning_chars: (80, 400),
            message_chars: (200, 1600),
            chunk_chars: (12, 28),
            tools_per_turn: (1, 3),
            tool_progress: (0, 2),
            tool_failure_rate: 0.1,
            action_rate: 0.15,
            subagent_rate: 0.1,
            turn_failure_rate: 0.02,
            state_delta_rate: 0.0,
        }
    }
}

/// Every option name, in `DEFAULT_OPTIONS` order.
pub const OPTION_NAMES: &[&str] = &[
    "startTime",
    "runtimeId",
    "schemaVersion",
    "model",
    "reasoningDeltas",
    "reasoningChars",
    "messageChars",
    "chunkChars",
    "toolsPerTurn",
    "toolProgress",
    "toolFailureRate",
    "actionRate",
    "subagentRate",
    "turnFailureRate",
    "stateDeltaRate",
];

/// Upper bounds of the range options: they keep one turn's work bounded.
const MAX_COUNT: i64 = 1_000;
const MAX_CHARS: i64 = 100_000;

fn string_of(key: &str, v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("option {key} must be a string, got {v}"))
}

fn rate_of(key: &str, v: &Value) -> Result<f64, String> {
    v.as_f64()
        .ok_or_else(|| format!("option {key} must be a number, got {v}"))
}

fn range_of(key: &str, v: &Value, min_low: i64, max_high: i64) -> Result<(i64, i64), String> {
    let msg = || {
        format!(
            "option {key} must be [min, max] with integers {min_low} <= min <= max <= {max_high}, got {v}"
        )
    };
    let items = v.as_array().ok_or_else(msg)?;
    let int = |x: Option<&Value>| -> Result<i64, String> {
        let f = x.and_then(Value::as_f64).ok_or_else(msg)?;
        if f.fract() != 0.0 || f < min_low as f64 || f > max_high as f64 {
            return Err(msg());
        }
        Ok(f as i64)
    };
    if items.len() != 2 {
        return Err(msg());
    }
    let (lo, hi) = (int(items.first())?, int(items.get(1))?);
    if lo > hi {
        return Err(msg());
    }
    Ok((lo, hi))
}

impl GenOptions {
    /// Options from a JSON object of `DEFAULT_OPTIONS` names (missing names keep their
    /// defaults; `null` means all defaults). Unknown names and values of the wrong shape are
    /// refused with a message naming the option.
    pub fn from_json(v: &Value) -> Result<GenOptions, String> {
        let mut o = GenOptions::default();
        let map = match v {
            Value::Null => return Ok(o),
            Value::Object(map) => map,
            other => return Err(format!("generator options must be an object, got {other}")),
        };
        for (key, value) in map {
            let k = key.as_str();
            match k {
                "startTime" => {
                    let s = string_of(k, value)?;
                    o.start_ms = parse_iso_utc(&s)?;
                    o.start_time = s;
                }
                "runtimeId" => o.runtime_id = string_of(k, value)?,
                "schemaVersion" => o.schema_version = string_of(k, value)?,
                "model" => o.model = string_of(k, value)?,
                "reasoningDeltas" => o.reasoning_deltas = range_of(k, value, 0, MAX_COUNT)?,
                "reasoningChars" => o.reasoning_chars = range_of(k, value, 0, MAX_CHARS)?,
                "messageChars" => o.message_chars = range_of(k, value, 0, MAX_CHARS)?,
                "chunkChars" => o.chunk_chars = range_of(k, value, 1, MAX_CHARS)?,
                "toolsPerTurn" => o.tools_per_turn = range_of(k, value, 0, MAX_COUNT)?,
                "toolProgress" => o.tool_progress = range_of(k, value, 0, MAX_COUNT)?,
                "toolFailureRate" => o.tool_failure_rate = rate_of(k, value)?,
                "actionRate" => o.action_rate = rate_of(k, value)?,
                "subagentRate" => o.subagent_rate = rate_of(k, value)?,
                "turnFailureRate" => o.turn_failure_rate = rate_of(k, value)?,
                "stateDeltaRate" => o.state_delta_rate = rate_of(k, value)?,
                _ => {
                    return Err(format!(
                        "unknown generator option {key:?}; known options: {}",
                        OPTION_NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(o)
    }

    /// The start time of the stream as given.
    pub fn start_time(&self) -> &str {
        &self.start_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn default_start_matches_text() {
        assert_eq!(parse_iso_utc(DEFAULT_START), Ok(DEFAULT_START_MS));
    }

    #[test]
    fn parses_and_refuses() {
        let o = GenOptions::from_json(&json!({"subagentRate": 1, "chunkChars": [3, 5.0]})).unwrap();
        assert_eq!(o.subagent_rate, 1.0);
        assert_eq!(o.chunk_chars, (3, 5));
        assert_eq!(
            GenOptions::from_json(&json!(null)).unwrap(),
            GenOptions::default()
        );
        let e = GenOptions::from_json(&json!({"subagentrate": 1})).unwrap_err();
        assert!(
            e.contains("unknown generator option \"subagentrate\""),
            "{e}"
        );
        for bad in [
            json!({"chunkChars": [0, 5]}),
            json!({"toolsPerTurn": [3, 1]}),
            json!({"toolsPerTurn": [1.5, 2]}),
            json!({"toolsPerTurn": [1]}),
            json!({"messageChars": [1, 1e9]}),
            json!({"model": 5}),
            json!({"actionRate": "0.1"}),
            json!({"startTime": "tomorrow"}),
            json!([1]),
        ] {
            assert!(GenOptions::from_json(&bad).is_err(), "{bad}");
        }
    }
}
