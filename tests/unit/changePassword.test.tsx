import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { registerFeedback } from "../../providers/feedback";
import { changeLanguage, i18nReady } from "../../providers/i18n";
import { ChangePasswordDialog, confirmPasswordError, newPasswordError } from "../../src/shell/ChangePasswordDialog";

const fetchMock = vi.fn<typeof fetch>();
const successes: string[] = [];
let unregister: () => void;

beforeAll(async () => {
  await i18nReady;
  await changeLanguage("en");
});
beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  unregister = registerFeedback({ error: () => {}, warning: () => {}, success: (t) => void successes.push(t), confirm: () => {} });
  successes.length = 0;
});
afterEach(() => {
  cleanup();
  unregister();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe("change-password rules (spec 5)", () => {
  it("new password: required, at least 6 characters", () => {
    expect(newPasswordError("")).toBe("dialog.password_required");
    expect(newPasswordError("12345")).toBe("dialog.password_short");
    expect(newPasswordError("123456")).toBeNull();
  });

  it("confirmation: required, equal to the new password", () => {
    expect(confirmPasswordError("", "123456")).toBe("dialog.password_again");
    expect(confirmPasswordError("1234567", "123456")).toBe("dialog.password_mismatch");
    expect(confirmPasswordError("123456", "123456")).toBeNull();
  });
});

function field(testId: string): HTMLInputElement {
  return screen.getByTestId(testId) as HTMLInputElement;
}

describe("change-password dialog", () => {
  it("shows the spec messages on blur", async () => {
    render(<ChangePasswordDialog open onClose={() => {}} />);
    fireEvent.blur(field("password-new"));
    expect(await screen.findByText("please enter password")).toBeTruthy();
    fireEvent.change(field("password-new"), { target: { value: "123" } });
    fireEvent.blur(field("password-new"));
    expect(await screen.findByText("password cannot be less than 6 characters")).toBeTruthy();
    fireEvent.blur(field("password-confirm"));
    expect(await screen.findByText("please enter again")).toBeTruthy();
    fireEvent.change(field("password-confirm"), { target: { value: "654321" } });
    fireEvent.blur(field("password-confirm"));
    expect(await screen.findByText("the two passwords do not match")).toBeTruthy();
  });

  it("sends nothing while invalid; when valid sends password1..3 and shows return_msg", async () => {
    const onClose = vi.fn();
    render(<ChangePasswordDialog open onClose={onClose} />);
    await act(async () => fireEvent.click(screen.getByTestId("password-submit")));
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ return_code: "SUCCESS", return_msg: "Password changed at last" })));
    fireEvent.change(field("password-current"), { target: { value: "demo1234" } });
    fireEvent.change(field("password-new"), { target: { value: "newpass1" } });
    fireEvent.change(field("password-confirm"), { target: { value: "newpass1" } });
    await act(async () => fireEvent.click(screen.getByTestId("password-submit")));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body)) as Record<string, string>;
    expect(body).toEqual({ method: "sysusereditpassword", password1: "demo1234", password2: "newpass1", password3: "newpass1" });
    expect(successes).toEqual(["Password changed at last"]);
  });
});
