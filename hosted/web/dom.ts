type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | undefined | ((event: Event) => void)>;

/** Creates an element; `on*` attributes become listeners, `true` booleans become empty attributes. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (typeof value === 'string') el.setAttribute(name, value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

export function button(label: string, action: string, onClick: () => void, extra: Attrs = {}): HTMLElement {
  return h('button', { type: 'button', 'data-action': action, onclick: onClick, ...extra }, label);
}

/** A live region message; `role=alert` for problems so screen readers announce them at once. */
export function notice(text: string, kind: 'info' | 'problem' = 'info'): HTMLElement {
  return h('p', { class: `notice ${kind}`, role: kind === 'problem' ? 'alert' : 'status' }, text);
}
