import { button } from './dom';

/**
 * The fallback when the camera is denied or absent: a file input whose `capture` attribute opens the
 * phone's own camera app (or, on a desktop, a file dialog). Reached through a real button so it has
 * a role, a name and the focus style of every other control.
 */
export function filePicker(
  label: string,
  accept: string,
  capture: 'environment' | 'user',
  onFile: (file: File) => void,
): HTMLElement {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = accept;
  input.setAttribute('capture', capture);
  input.className = 'visually-hidden';
  input.tabIndex = -1;
  input.setAttribute('aria-hidden', 'true');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) onFile(file);
  });
  const wrapper = document.createElement('span');
  wrapper.append(
    button(label, 'upload', () => input.click(), { class: 'secondary' }),
    input,
  );
  return wrapper;
}
