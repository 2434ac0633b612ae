/**
 * The in-place dialog of the v2 grade and class lists (src/engine/RecordModal.tsx): a save the server refuses, such
 * as a grade whose name the school already has, keeps the dialog open with the server's message under the field,
 * and nothing escapes the page as an uncaught error. Only fetch is fake.
 */
import { afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { changeLanguage } from "../../providers/i18n";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const DUPLICATE = "Grade name already exists";

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => void rejections.push(reason);

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  clearCookies();
  setCookies({ token: "tok", select_user_type: "school", login_user_type: "school", servicer_ver: "v2", language: "en", select_sysid: "2", select_schid: "5" });
  rejections.length = 0;
  process.on("unhandledRejection", onRejection);
});
afterEach(() => {
  process.off("unhandledRejection", onRejection);
  cleanup();
  vi.unstubAllGlobals();
  document.querySelectorAll(".ant-modal-root, .ant-message").forEach((node) => node.remove());
});

it("shows the server's refusal of a duplicate grade under its field and keeps the dialog open", { timeout: 20000 }, async () => {
  const net = fakeWeapi((body) => {
    if (body.method === "gradeadd") {
      return { return_code: "FAIL", return_msg: DUPLICATE, data: { errors: [{ field: "title", message: DUPLICATE }] } };
    }
    return { return_code: "SUCCESS", return_msg: "", data: { items: [{ id: 1, sch_id: 5, title: "一年级", sort: 1 }], total: 1 } };
  });
  renderCrud("/schoolv2/gradelist");
  fireEvent.click(await screen.findByTestId("add-button", {}, { timeout: 10000 }));
  await screen.findByTestId("record-modal-add");
  const title = () => within(screen.getByTestId("record-modal-add")).getByPlaceholderText("Grade name") as HTMLInputElement;
  expect(within(screen.getByTestId("record-modal-add")).getByText("Grade name")).toBeTruthy();
  fireEvent.change(title(), { target: { value: "一年级" } });
  fireEvent.click(screen.getByRole("button", { name: /Save/ }));

  await waitFor(() => expect(net.of("gradeadd")).toHaveLength(1));
  expect(net.of("gradeadd")[0]!.body).toMatchObject({ title: "一年级", sch_id: "5" });
  // the dialog stays open with the message under the field and what was typed, ready for another name
  await waitFor(() => expect(within(screen.getByTestId("record-modal-add")).getByText(DUPLICATE, { selector: ".ant-form-item-explain-error" })).toBeTruthy());
  expect(title().value).toBe("一年级");
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(rejections).toEqual([]);
});
