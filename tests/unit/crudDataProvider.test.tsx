/**
 * The data provider over the real weapi client; only fetch is fake.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiFailError, dataProvider } from "../../providers/dataProvider";
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
});
