/**
 * Forms whose submission cannot be undone (a batch of activation codes, a term extension) are submitted only
 * by their button: Enter in one of their fields, e.g. to confirm a typed date, would otherwise submit the
 * form as it stands, with the fields still to fill left empty.
 */
import type { KeyboardEvent } from "react";

/** onKeyDown of such a form: Enter keeps its meaning inside the field (a picker, a list) but submits nothing. */
export function submitOnlyByButton(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== "Enter") return;
  const target = event.target as HTMLElement;
  // a text area takes new lines; Enter on a button is the button's own click
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement) return;
  event.preventDefault();
}
