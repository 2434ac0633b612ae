/**
 * Switching the interface language keeps what the page holds: the login form keeps the username and password
 * typed, in every direction between the three languages (English included, antd's built-in one).
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { AppProviders } from "../../src/AppProviders";
import { loadAntdLocale } from "../../src/lib/antdLocale";
import { LoginPage } from "../../src/pages/LoginPage";
import { clearCookies } from "../helpers/weapiFetch";

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={["/login"]}>
      <AppProviders>
        <LoginPage />
      </AppProviders>
    </MemoryRouter>,
  );
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

beforeEach(async () => {
  clearCookies();
  await changeLanguage("en");
});
afterEach(() => cleanup());

describe("language switch on the login page", () => {
  it("keeps the typed username and password through en -> zh -> es -> en", async () => {
    renderLogin();
    fireEvent.change(input("login-username"), { target: { value: "school" } });
    fireEvent.change(input("login-password"), { target: { value: "secret" } });
    const username = input("login-username");

    for (const [lang, label] of [
      ["zh", "用户名"],
      ["es", "Usuario"],
      ["en", "Username"],
    ] as const) {
      fireEvent.click(screen.getByTestId(`language-${lang}`));
      await waitFor(() => expect(document.documentElement.lang).toBe(lang));
      await waitFor(() => expect(screen.getByText(label, { selector: "label" })).toBeTruthy());
      // antd's texts of the language arrive after ours: the page must survive them too
      await act(async () => {
        await loadAntdLocale(lang);
      });
      expect(input("login-username").value).toBe("school");
      expect(input("login-password").value).toBe("secret");
      // the same element: the form was not mounted anew
      expect(input("login-username")).toBe(username);
    }
  });
});
