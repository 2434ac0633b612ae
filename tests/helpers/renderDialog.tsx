/**
 * Mounts a shell dialog or page the way the console does (antd App, a router, refine with the real data
 * provider and the catalogue's resources, the toast bridge) and records the toasts; with fake timers, `advance` moves time and lets the fake
 * network answer.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { act, render } from "@testing-library/react";
import { App as AntdApp, ConfigProvider } from "antd";
import { useEffect, type ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { vi } from "vitest";
import { dataProvider } from "../../providers/dataProvider";
import { i18nProvider } from "../../providers/i18n";
import { registerFeedback } from "../../providers/feedback";
import { catalogueResources } from "../../src/engine";

export interface Toasts {
  errors: string[];
  successes: string[];
  warnings: string[];
}

function ToastRecorder({ toasts }: { toasts: Toasts }) {
  useEffect(
    () =>
      registerFeedback({
        error: (text) => void toasts.errors.push(text),
        warning: (text) => void toasts.warnings.push(text),
        success: (text) => void toasts.successes.push(text),
        confirm: () => undefined,
      }),
    [toasts],
  );
  return null;
}

/** `route`: the pattern the element is mounted at, `path`: the location opened. */
export function renderDialog(ui: ReactElement, { path = "/", route = "*" }: { path?: string; route?: string } = {}) {
  const toasts: Toasts = { errors: [], successes: [], warnings: [] };
  const view = render(
    // without motion a closed dialog is hidden at once (jsdom ends no CSS transition)
    <ConfigProvider theme={{ token: { motion: false } }}>
      <AntdApp>
        <ToastRecorder toasts={toasts} />
        <MemoryRouter initialEntries={[path]}>
          <Refine routerProvider={routerProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} resources={catalogueResources()} options={{ disableTelemetry: true, reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } } }}>
            <Routes>
              <Route path={route} element={ui} />
            </Routes>
          </Refine>
        </MemoryRouter>
      </AntdApp>
    </ConfigProvider>,
  );
  return { ...view, toasts };
}

/** Moves fake time by `ms` and settles what it releases (answers, then the renders they cause). */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  // form validation and its messages take a few more turns without time passing
  for (let turn = 0; turn < 3; turn++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}
