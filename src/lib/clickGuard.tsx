/**
 * Click guard (spec 5): a button is disabled for 3000 ms (or a given value) after a click, against double
 * submissions.
 */
import { Button, type ButtonProps } from "antd";
import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";

export const CLICK_GUARD_MS = 3000;

export function useClickGuard(ms: number = CLICK_GUARD_MS): { blocked: boolean; trigger: () => void } {
  const [blocked, setBlocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const trigger = useCallback(() => {
    setBlocked(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setBlocked(false), ms);
  }, [ms]);
  return { blocked, trigger };
}

export function GuardedButton({ guardMs = CLICK_GUARD_MS, onClick, disabled, ...props }: ButtonProps & { guardMs?: number }) {
  const { blocked, trigger } = useClickGuard(guardMs);
  return (
    <Button
      {...props}
      disabled={disabled || blocked}
      onClick={(e: MouseEvent<HTMLElement>) => {
        if (blocked) return;
        trigger();
        onClick?.(e as never);
      }}
    />
  );
}
