/**
 * Reloads the school's or provider's term shown by the shell (top bar expiry, expiry reminder) after a
 * renewal made on a page. Outside the shell there is nothing to reload.
 */
import { createContext, useContext } from "react";

export const TermReloadContext = createContext<() => void>(() => undefined);

export function useTermReload(): () => void {
  return useContext(TermReloadContext);
}
