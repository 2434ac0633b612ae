/** Loads the command palette with the first Ctrl/Cmd-K, keeping kbar out of the console's first load. */
import { lazy, Suspense, useEffect, useState } from "react";
import type { PaletteCommands } from "./CommandPalette";

const CommandPalette = lazy(() => import("./CommandPalette"));

export function isPaletteShortcut(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey">): boolean {
  return (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k";
}

export function LazyCommandPalette(props: PaletteCommands) {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (loaded) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isPaletteShortcut(e)) return;
      e.preventDefault();
      setLoaded(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [loaded]);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette {...props} />
    </Suspense>
  );
}
