// How the views are exported. Each view is a memoized component (React.memo: it renders again
// only when a prop is a new object); the package exports a plain function component in front of
// it, because the view package's exports are functions (`typeof View === "function"`) and callers
// may rely on that. Inside the package the memoized components are used directly.
import { createElement as h } from "react";

/** The exported function component for the memoized `view` (same name, same props). */
export function exportView(view) {
  const name = view.type.displayName ?? view.type.name;
  // A property named after the view names the arrow function (for stack traces and dev tools).
  return { [name]: (props) => h(view, props) }[name];
}
