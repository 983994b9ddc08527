// The action of an action request and its controls (`projectAgentRuntimeAction` and the
// `actions` of an open request's read-model projection), evaluated from the rule tables the Rust
// projection itself uses (projection::view_rules). views.js exports them; the projection makers
// (glue/templates.js) call them to make an open request's projection from the caller's event.
import { RULES } from "./rules.js";

const RM = RULES.readModel;
const CONTROLS_KEY = RM.controlsKey;
const CONTROL_LABEL_PREFIX = RM.controlLabelPrefix;
// Every action rule, and the fallback, as objects of one shape (one hidden class to read).
const actionRule = (rule) => ({
  actionKinds: rule.actionKinds ?? [],
  targetModules: rule.targetModules ?? [],
  labelKey: rule.labelKey,
  decision: rule.decision,
  defaultActionKind: rule.defaultActionKind ?? "",
  inputSourceRecovery: rule.inputSourceRecovery ?? false,
});
const ACTION_RULES = RM.actionRules.map(actionRule);
const FALLBACK_ACTION = actionRule(RM.fallbackAction);
export const RECOVERY_RULES = ACTION_RULES.filter((rule) => rule.inputSourceRecovery);

// The two payload fields every action rule reads, read by name: a named property read is much
// cheaper than a computed one on payloads of many shapes. The tables must name the same fields.
if (RM.actionKindKey !== "actionKind" || RM.targetModuleKey !== "targetModule") {
  throw new Error("actions.js: the rule tables read other payload fields than actionKind and targetModule");
}

export function actionKindOf(event) {
  const payload = event.payload;
  const value = payload === undefined || payload === null ? undefined : payload.actionKind;
  return typeof value === "string" ? value : "";
}

export function targetModuleOf(event) {
  const payload = event.payload;
  const value = payload === undefined || payload === null ? undefined : payload.targetModule;
  return typeof value === "string" ? value : "";
}

/** The first of `rules` naming the action kind or the target module. */
export function actionRuleFor(actionKind, targetModule, rules) {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const kinds = rule.actionKinds;
    for (let j = 0; j < kinds.length; j++) if (kinds[j] === actionKind) return rule;
    const modules = rule.targetModules;
    for (let j = 0; j < modules.length; j++) if (modules[j] === targetModule) return rule;
  }
  return undefined;
}

export function projectAgentRuntimeAction(event) {
  const actionKind = actionKindOf(event);
  const targetModule = targetModuleOf(event);
  const rule = actionRuleFor(actionKind, targetModule, ACTION_RULES) ?? FALLBACK_ACTION;
  return {
    actionKind: actionKind || rule.defaultActionKind,
    targetModule,
    labelKey: rule.labelKey,
    decision: rule.decision,
  };
}

/** The action request's controls (non-blank strings, first occurrence kept) as actions. */
export function projectActions(event) {
  const base = projectAgentRuntimeAction(event);
  const payload = event.payload;
  const given = payload === undefined || payload === null ? undefined : payload[CONTROLS_KEY];
  const controls = new Set();
  if (Array.isArray(given)) {
    for (const control of given) if (typeof control === "string" && control.trim()) controls.add(control);
  }
  if (controls.size === 0) return [base];
  return Array.from(controls, (control) => ({
    ...base,
    labelKey: `${CONTROL_LABEL_PREFIX}${control}`,
    decision: control,
  }));
}
