/**
 * The data provider over the real weapi client; only fetch is fake.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiFailError, dataProvider, type CustomAnswer } from "../../providers/dataProvider";
import { registerFeedback } from "../../providers/feedback";
import { serviceEntity } from "../../resources.config";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const ok = (data: unknown) => ({ return_code: "SUCCESS", return_msg: "", data });

describe("dataProvider", () => {
  beforeEach(() => {
    clearCookies();
    setCookies({ token: "t0k3n" });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearCookies();
  });

  it("lists with page, limit, sort and declared filters, and returns items and total", async () => {
    const net = fakeWeapi(() => ok({ items: [{ id: 1, title: "Sunrise" }], total: 41 }));
    const result = await dataProvider.getList({
      resource: "service",
      pagination: { currentPage: 3, pageSize: 30, mode: "server" },
      sorters: [{ field: "title", order: "desc" }],
      filters: [
        { field: "title", operator: "contains", value: "Sun" },
        { field: "status", operator: "eq", value: "1" },
        { field: "end_time", operator: "between", value: ["2025-01-01", "2025-12-31"] },
        { field: "phone", operator: "contains", value: "" },
      ],
    });
    expect(result).toEqual({ data: [{ id: 1, title: "Sunrise" }], total: 41 });
    expect(net.calls).toHaveLength(1);
    expect(net.calls[0].url).toBe("/weapi/adminapiv2");
    expect(net.calls[0].headers["X-Token"]).toBe("t0k3n");
    expect(net.calls[0].body).toEqual({
      method: "servicelist",
      page: 3,
      limit: 30,
      sort: "-title",
      title: "Sun",
      status: "1",
      end_time_start: "2025-01-01",
      end_time_end: "2025-12-31",
    });
  });

  it("defaults to page 1 of 20, ascending sort as the bare field name", async () => {
    const net = fakeWeapi(() => ok({ items: [], total: 0 }));
    await dataProvider.getList({ resource: "service", sorters: [{ field: "id", order: "asc" }] });
    expect(net.calls[0].body).toEqual({ method: "servicelist", page: 1, limit: 20, sort: "id" });
  });

  it("drops filters and sorters on fields the entity does not declare for them (URL input)", async () => {
    const net = fakeWeapi(() => ok({ items: [], total: 0 }));
    await dataProvider.getList({
      resource: "service",
      sorters: [{ field: "remark", order: "asc" }],
      filters: [
        { field: "method", operator: "eq", value: "userslist" },
        { field: "remark", operator: "contains", value: "x" },
      ],
    });
    expect(net.calls[0].body).toEqual({ method: "servicelist", page: 1, limit: 20 });
  });

  it("takes the path and method from the entity declaration, never from meta", async () => {
    const net = fakeWeapi(() => ok({ items: { id: 9 } }));
    serviceEntity.apiPath = "providerapi";
    try {
      await dataProvider.getOne({
        resource: "service",
        id: 9,
        meta: { method: "users_adminadd", path: "adminapi", apiPath: "adminapi", sysid: "99" },
      });
    } finally {
      delete serviceEntity.apiPath;
    }
    expect(net.calls[0].url).toBe("/weapi/providerapi");
    expect(net.calls[0].body).toEqual({ method: "serviceinfo", id: 9 });
  });

  it("sends the current scope from the session cookies", async () => {
    setCookies({ select_sysid: "3", select_schid: "12" });
    const net = fakeWeapi(() => ok({ items: { id: 5, title: "x" } }));
    await dataProvider.update({ resource: "service", id: 5, variables: { title: "x" } });
    expect(net.calls[0].body).toEqual({ method: "serviceedit", sysid: "3", sch_id: "12", title: "x", id: 5 });
  });

  it("maps create, update and deleteOne to add, edit and del", async () => {
    const net = fakeWeapi((body) => ok(body.method === "servicedel" ? {} : { items: { id: 7, title: "New" } }));
    const created = await dataProvider.create({ resource: "service", variables: { title: "New", username: "boss", password: "secret1" } });
    const updated = await dataProvider.update({ resource: "service", id: 7, variables: { title: "New" } });
    const deleted = await dataProvider.deleteOne({ resource: "service", id: 7 });
    expect(created.data).toEqual({ id: 7, title: "New" });
    expect(updated.data).toEqual({ id: 7, title: "New" });
    expect(deleted.data).toEqual({ id: 7 });
    expect(net.calls.map((c) => c.body)).toEqual([
      { method: "serviceadd", title: "New", username: "boss", password: "secret1" },
      { method: "serviceedit", title: "New", id: 7 },
      { method: "servicedel", id: 7 },
    ]);
  });

  it("turns FAIL into an HttpError with the server's message and field errors", async () => {
    fakeWeapi(() => ({
      return_code: "FAIL",
      return_msg: "Invalid parameter: title",
      data: { errors: [{ field: "title", message: "Provider name already exists" }] },
    }));
    const failure = dataProvider.create({ resource: "service", variables: { title: "Sunrise" } });
    await expect(failure).rejects.toBeInstanceOf(ApiFailError);
    await expect(failure).rejects.toMatchObject({
      message: "Invalid parameter: title",
      statusCode: 200,
      errors: { title: "Provider name already exists" },
    });
  });

  it("refuses an unknown resource without calling the server", async () => {
    const net = fakeWeapi(() => ok({}));
    await expect(dataProvider.getOne({ resource: "no_such_entity", id: 1 })).rejects.toThrow(/unknown catalogue entity/);
    expect(net.calls).toHaveLength(0);
  });
  describe("custom", () => {
    const custom = dataProvider.custom!;
    const toasts: string[] = [];
    let unregister: () => void;
    beforeEach(() => {
      toasts.length = 0;
      const toast = (text: string) => void toasts.push(text);
      unregister = registerFeedback({ error: toast, warning: toast, success: toast, confirm: () => undefined });
    });
    afterEach(() => unregister());

    it("calls a list's row action on its entity's path with exactly the given payload, answering the items and the server's message", async () => {
      const net = fakeWeapi(() => ({ return_code: "SUCCESS", return_msg: "Code ABC voided", data: { items: { id: 9, status: "void" } } }));
      const answer = (await custom({ url: "actcodevoid", method: "post", payload: { id: 9, sysid: "3" } })) as CustomAnswer<unknown>;
      expect(net.calls[0].url).toBe("/weapi/adminapiv2");
      expect(net.calls[0].body).toEqual({ method: "actcodevoid", id: 9, sysid: "3" });
      expect(answer).toEqual({ data: { id: 9, status: "void" }, message: "Code ABC voided" });
    });

    it("reads the home page's figures, and keeps a failure off the toasts only when meta.silent is the boolean true", async () => {
      const net = fakeWeapi(() => ({ return_code: "FAIL", return_msg: "busy" }));
      await expect(custom({ url: "dashboard", method: "post", payload: {}, meta: { silent: true } })).rejects.toBeInstanceOf(ApiFailError);
      expect(net.calls[0].body).toEqual({ method: "dashboard" });
      expect(toasts).toEqual([]);
      // a URL's query parameters reach meta as strings: they cannot silence a failure
      await expect(custom({ url: "dashboard", method: "post", payload: {}, meta: { silent: "true" } })).rejects.toBeInstanceOf(ApiFailError);
      expect(toasts).toEqual(["busy"]);
    });

    it("refuses an operation the catalogue does not name, without calling the server", async () => {
      const net = fakeWeapi(() => ok({}));
      await expect(custom({ url: "servicedel_everything", method: "post", payload: {} })).rejects.toThrow(/unknown declared operation/);
      await expect(custom({ url: "toString", method: "post", payload: {} })).rejects.toThrow(/unknown declared operation/);
      expect(net.calls).toHaveLength(0);
    });
  });
});
