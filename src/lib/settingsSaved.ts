/**
 * A settings page announces each save here, so that what shows its values elsewhere in the console (the site
 * title in the sidebar and the browser tab) refreshes at once, without knowing the page.
 */
type Listener = (name: string, record: Record<string, unknown>) => void;

const listeners = new Set<Listener>();

/** Listens to every save of a settings page; returns the unsubscribe function. */
export function onSettingsSaved(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** A settings page saved: `name` is its SettingsDecl name, `record` the record as the server answered it. */
export function settingsSaved(name: string, record: Record<string, unknown>): void {
  for (const listener of [...listeners]) listener(name, record);
}
