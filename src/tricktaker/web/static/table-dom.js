// A tiny DOM helper for the table: every string becomes a text node (never markup),
// so chat, names and the server's messages can never inject HTML.

/**
 * h("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...):
 * an element; attributes starting with "on" are listeners; false/null attributes are
 * left out; children may be strings (text nodes), nodes, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.append(child);
    else node.append(document.createTextNode(String(child)));
  }
}
