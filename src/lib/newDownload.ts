/**
 * A new file in the download centre: an export queued by the user marks it, and the header's download icon shows a
 * dot until the user opens the download centre (or the file from it), so the way to the file outlives the toast
 * that told of it. Kept per user in the browser's storage: a reload or another tab of the console shows it too.
 */
import { useSyncExternalStore } from "react";
import { sessionUser, subscribeSession } from "../../providers/session";

const KEY_PREFIX = "campus-pay-console:new-download:";

function storageKey(): string | undefined {
  const username = sessionUser()?.username;
  return username ? `${KEY_PREFIX}${username}` : undefined;
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Whether the user has a file in the download centre they have not looked at since it was asked for. */
export function hasNewDownload(): boolean {
  const key = storageKey();
  if (!key) return false;
  try {
    return window.localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function write(mark: boolean): void {
  const key = storageKey();
  if (!key || mark === hasNewDownload()) return;
  try {
    if (mark) window.localStorage.setItem(key, new Date().toISOString());
    else window.localStorage.removeItem(key);
  } catch {
    // storage unavailable: no dot, the toast's link still leads there
  }
  changed();
}

/** An export was queued: its file will be in the download centre. */
export function markNewDownload(): void {
  write(true);
}

/** The user opened the download centre or a file in it. */
export function clearNewDownload(): void {
  write(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // another tab of the console queued an export or opened the download centre
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(KEY_PREFIX)) listener();
  };
  window.addEventListener("storage", onStorage);
  // another user signed in: their mark
  const unsubscribeSession = subscribeSession(listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
    unsubscribeSession();
  };
}

export function useNewDownload(): boolean {
  return useSyncExternalStore(subscribe, hasNewDownload, () => false);
}
