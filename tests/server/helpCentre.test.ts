/**
 * The help centre (catelist, probllist; the help page's `helpcenter`): what each kind of account reads of the demo's
 * questions, found by words in any language; answers kept clean of scripts whatever an operator pastes; categories
 * and questions kept by the operators alone.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpProblems } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

describeOnEmbedded("the help centre", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const titles = async (user: string, payload: Row = {}) => {
    const res = await call(user, "helpcenter", payload);
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return (res.data?.items as { title: string }[]).map((q) => q.title);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["sysadmin", "sysv1", "svc", "staff", "school", "pickup", "schoolv1"]) tokens[user] = await t.login(user);
  });
  afterAll(async () => {
    await t?.close();
  });

  // the demo's questions as each account finds them, written apart from the seed: a word of a title, a word of an
  // answer only, a word of another case, two words together, a tag's name, a category switched off
  const searches: { keyword: string; found: Record<string, string[]> }[] = [
    { keyword: "退款", found: { school: ["如何退款？", "部分退款后还能再次退款吗？"], pickup: ["如何退款？", "部分退款后还能再次退款吗？"] } },
    { keyword: "原路退回", found: { svc: ["如何退款？"], school: ["如何退款？"] } },
    { keyword: "核销", found: { svc: ["核销员如何核销自提订单？"], pickup: ["核销员如何核销自提订单？"], school: [], sysadmin: [] } },
    { keyword: "续费", found: { school: ["如何续费学校的使用期限？"], schoolv1: ["如何续费学校的使用期限？"], svc: [], staff: [] } },
    { keyword: "sku", found: { svc: ["商品如何设置多个尺码？"], school: [] } },
    { keyword: "退款 原因", found: { svc: ["如何退款？"] } },
    { keyword: "切换学校", found: { sysadmin: ["如何切换管理的学校？"], staff: ["如何切换管理的学校？"], school: [], pickup: [] } },
    { keyword: "strong", found: { svc: [] } },
    { keyword: "旧版", found: { sysadmin: [], svc: [] } },
    { keyword: "%", found: { svc: [] } },
  ];
  it.each(searches.flatMap(({ keyword, found }) => Object.entries(found).map(([user, expected]) => ({ keyword, user, expected }))))(
    '"$keyword" finds for $user what is meant for it',
    async ({ keyword, user, expected }) => {
      expect(await titles(user, { keyword })).toEqual(expected);
    },
  );

  it("lists the categories in use with the questions each account may read, in their order", async () => {
    const res = await call("school", "helpcenter");
    expect((res.data?.cates as Row[]).map((c) => [c.title, c.count])).toEqual([
      ["账号与登录", 2],
      ["收费与缴费", 3],
      ["退款", 2],
    ]);
    const pickup = await call("pickup", "helpcenter");
    expect((pickup.data?.cates as Row[]).map((c) => [c.title, c.count])).toEqual([
      ["账号与登录", 2],
      ["收费与缴费", 1],
      ["退款", 2],
      ["商城与核销", 1],
    ]);
    const refunds = (pickup.data?.cates as Row[]).find((c) => c.title === "退款")!;
    expect(await titles("pickup", { cate_id: refunds.id })).toEqual(["如何退款？", "部分退款后还能再次退款吗？"]);
  });

  it("keeps an answer clean of scripts, and shows a question only while it and its category are in use", async () => {
    const cate = await call("sysadmin", "cateadd", { title: "打印机", sort: 9 });
    expect(cate.return_code, cate.return_msg).toBe("SUCCESS");
    const cateId = (cate.data?.items as Row).id;
    const added = await call("sysadmin", "probladd", {
      title: "小票机不出纸怎么办？",
      cate_id: cateId,
      content: '<p onclick="steal()">检查纸卷<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">说明</a><img src="https://cdn.example.com/paper.png"></p>',
      roles: ["service", "school"],
      sort: 1,
    });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const id = (added.data?.items as Row).id as number;
    const [stored] = await t.db.select({ content: helpProblems.content }).from(helpProblems).where(eq(helpProblems.id, id));
    // the script, the handlers and the script's address gone; a relative address is the site's own
    expect(stored.content).toBe('<p>检查纸卷<img src="x" /><a target="_blank" rel="noopener noreferrer">说明</a><img src="https://cdn.example.com/paper.png" /></p>');
    const read = await call("school", "helpcenter", { keyword: "纸卷" });
    expect(read.data?.items).toEqual([{ id, title: "小票机不出纸怎么办？", cate_id: cateId, content: stored.content }]);

    expect((await call("sysadmin", "probledit", { id, status: "0" })).return_code).toBe("SUCCESS");
    expect(await titles("school", { keyword: "纸卷" })).toEqual([]);
    expect((await call("sysadmin", "probledit", { id, status: "1" })).return_code).toBe("SUCCESS");
    expect((await call("sysadmin", "cateedit", { id: cateId, status: "0" })).return_code).toBe("SUCCESS");
    expect(await titles("school", { keyword: "纸卷" })).toEqual([]);

    // a category holding questions stays
    const removed = await call("sysadmin", "catedel", { id: cateId });
    expect(removed.return_code).toBe("FAIL");
    expect((await call("sysadmin", "probldel", { id })).return_code).toBe("SUCCESS");
    expect((await call("sysadmin", "catedel", { id: cateId })).return_code).toBe("SUCCESS");
  });

  describe("refusals", () => {
    it("refuses a question without its category or with an unknown kind of account, naming the field", async () => {
      const noCate = await call("sysv1", "probladd", { title: "无分类", content: "<p>x</p>" });
      expect(noCate.return_code).toBe("FAIL");
      expect(JSON.stringify(noCate.data)).toContain("cate_id");
      const badRole = await call("sysv1", "probladd", { title: "未知账号", cate_id: 1, content: "<p>x</p>", roles: ["parent"] });
      expect(badRole.return_code).toBe("FAIL");
      expect(JSON.stringify(badRole.data)).toContain("roles");
    });

    it("keeps the categories and questions to the platform's operators", async () => {
      for (const user of ["svc", "staff", "school", "pickup"]) {
        for (const method of ["catelist", "cateadd", "probllist", "probladd"]) {
          const res = await call(user, method, { title: "x" });
          expect(res.return_code, `${user} ${method}`).toBe("FAIL");
          expect(res.return_msg).toBe(en.api.no_permission);
        }
      }
    });

    it("refuses a search over 100 characters naming it, and a caller without a session", async () => {
      const long = await call("svc", "helpcenter", { keyword: "退".repeat(101) });
      expect(long.return_code).toBe("FAIL");
      expect(JSON.stringify(long)).toContain("keyword");
      const anonymous = await t.call("adminapiv2", "helpcenter", {});
      expect(anonymous.return_code).toBe("token_error");
    });
  });
});
