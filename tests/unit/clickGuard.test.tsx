import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLICK_GUARD_MS, GuardedButton } from "../../src/lib/clickGuard";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("click guard (spec 5)", () => {
  it("disables the button for 3000 ms after a click", () => {
    const onClick = vi.fn();
    render(<GuardedButton onClick={onClick}>pay</GuardedButton>);
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "pay" });
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(CLICK_GUARD_MS - 1));
    expect(button.disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(2);
    expect(CLICK_GUARD_MS).toBe(3000);
  });

  it("takes a given duration", () => {
    render(<GuardedButton guardMs={500}>save</GuardedButton>);
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "save" });
    fireEvent.click(button);
    act(() => vi.advanceTimersByTime(499));
    expect(button.disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(button.disabled).toBe(false);
  });
});
