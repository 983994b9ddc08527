use agent_runtime_projection::contract::val::Val;
fn main() {
    let text = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(1000);
    let mut total = 0;
    for _ in 0..n {
        let v: serde_json::Value = agent_runtime_projection::contract::json::parse_value(&text).unwrap();
        let events = match v { serde_json::Value::Array(a) => a, _ => vec![] };
        let m = agent_runtime_projection::projection::project_agent_runtime_read_model(&events, Val::Num(0.0)).unwrap();
        let mut s = String::new();
        m.write_json(&mut s);
        total += s.len();
    }
    println!("{}", total / n);
}
