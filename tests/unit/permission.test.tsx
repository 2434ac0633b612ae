import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setSessionUser } from "../../providers/session";
import { Permission } from "../../src/lib/Permission";

function loginAs(roles: string[]) {
  act(() => setSessionUser({ roles, name: "n", avatar: "", introduction: "", username: "u", user_type: "system" }));
}

afterEach(() => {
  cleanup();
  act(() => setSessionUser(null));
});

describe("permission component (spec 5, 6)", () => {
  it("renders its children when the user holds one of the roles", () => {
    loginAs(["servicev2", "xcxuploadv2"]);
    render(<Permission roles={["systemv2", "xcxuploadv2"]}>publish</Permission>);
    expect(screen.getByText("publish").textContent).toBe("publish");
  });

  it("renders nothing when the user holds none, and follows role changes", () => {
    loginAs(["schoolv2"]);
    const { container } = render(<Permission roles={["superadminv2"]}>admins</Permission>);
    expect(container.innerHTML).toBe("");
    loginAs(["systemv2", "superadminv2"]);
    expect(screen.getByText("admins").textContent).toBe("admins");
  });

  it("lets role 'admin' see everything", () => {
    loginAs(["admin"]);
    render(<Permission roles={["pickup"]}>verify</Permission>);
    expect(screen.getByText("verify").textContent).toBe("verify");
  });

  it("requires a non-empty role list", () => {
    loginAs(["systemv2"]);
    expect(() => render(<Permission roles={[]}>x</Permission>)).toThrow(/needs roles/);
  });
});
