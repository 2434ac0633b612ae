/**
 * The public website's content (syshome, articlelist) and the site at /site: the home page shows what the operators
 * wrote and the articles published, in the reader's language, small on the wire; an article shows once published
 * and its time has come, its content kept clean of scripts; bad input refused naming the field; the content kept
 * by the operators alone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnEmbedded } from "../helpers/db";
import { en, zh } from "../helpers/locales";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const DAY_MS = 86_400_000;

describeOnEmbedded("the public website", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
  const get = (url: string, language = "zh-CN") => t.app.inject({ method: "GET", url, headers: { accept: "text/html", "accept-language": language } });
  const errorsOf = (res: { data?: unknown }) => ((res.data as { errors?: { field: string; message: string }[] } | undefined)?.errors ?? []).map((e) => e.field);

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["sysadmin", "sysv1", "svc", "school"]) tokens[user] = await t.login(user);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows the home page as the operators wrote it, with the articles published, in the reader's language", async () => {
    const zhPage = await get("/site");
    expect(zhPage.statusCode).toBe(200);
    expect(zhPage.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(zhPage.headers["cache-control"]).toBe("public, max-age=60");
    const html = zhPage.body;
    for (const text of ["校园缴费平台", "学费、餐费、校服，一个二维码收齐", "在线收费", "校园商城", "对账与结算", "400-820-1234", "沪ICP备00000000号-1", zh.site.public.latest, "秋季校服征订开始", 'content="为学校和教育服务商提供在线收费']) {
      expect(html, text).toContain(text);
    }
    // neither the draft nor next week's article
    expect(html).not.toContain("寒假托管");
    expect(html).not.toContain("下周发布");
    // no script of any kind, and a policy that runs none
    expect(html).not.toMatch(/<script/i);
    expect(zhPage.headers["content-security-policy"]).toContain("default-src 'none'");

    const enPage = await get("/site", "en-US");
    expect(enPage.body).toContain(`>${en.site.public.articles}<`);
    expect(enPage.body).toContain('<html lang="en">');
  });

  it("is small on the wire: the home page, the articles and an article each under 100 KB compressed", async () => {
    const list = await get("/site/articles");
    const id = /\/site\/articles\/(\d+)/.exec(list.body)![1];
    for (const url of ["/site", "/site/articles", `/site/articles/${id}`]) {
      const res = await t.app.inject({ method: "GET", url, headers: { accept: "text/html", "accept-encoding": "br, gzip" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.rawPayload.length, url).toBeLessThan(100 * 1024);
    }
  });

  it("lists the published articles newest first, ten a page, and refuses a page that is not one", async () => {
    const listed = (body: string) => [...body.matchAll(/data-testid="site-article"[^>]*>(?:<img[^>]*>)?<div><h2>([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(listed((await get("/site/articles")).body)).toEqual(["秋季校服征订开始，支持按尺码在线选购", "平台新增自动对账功能", "如何为学生批量导入账单"]);
    for (let i = 1; i <= 10; i++) {
      const added = await call("sysadmin", "articleadd", { title: `通知 ${i}`, content: `<p>第 ${i} 号通知</p>`, status: "published", published_at: new Date(t.clock.now().getTime() - i * 60_000).toISOString() });
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
    }
    const first = await get("/site/articles");
    expect(listed(first.body)).toEqual(["通知 1", "通知 2", "通知 3", "通知 4", "通知 5", "通知 6", "通知 7", "通知 8", "通知 9", "通知 10"]);
    expect(first.body).toContain("1 / 2");
    expect(listed((await get("/site/articles?page=2")).body)).toEqual(["秋季校服征订开始，支持按尺码在线选购", "平台新增自动对账功能", "如何为学生批量导入账单"]);
    for (const url of ["/site/articles?page=3", "/site/articles?page=0", "/site/articles?page=abc", "/site/articles/0", "/site/articles/abc", "/site/articles/99999999999"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(zh.site.public.not_found);
    }
  });

  it("saves the home page as its form sends it back whole", async () => {
    const info = await call("sysadmin", "syshomeinfo");
    const saved = await call("sysadmin", "syshomeedit", info.data?.items as Row);
    expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
    expect(saved.data?.items).toEqual(info.data?.items);
  });

  it("refuses bad content naming the field, and keeps it to the operators", async () => {
    const sections = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `板块 ${i + 1}`, text: "文字", image: "" }));
    const cases: { payload: Row; field: string }[] = [
      { payload: { sections: [{ title: "好", text: "", image: "" }, { title: "", text: "没有标题", image: "" }] }, field: "sections" },
      { payload: { sections: [{ title: "图片", text: "", image: "javascript:alert(1)" }] }, field: "sections" },
      { payload: { sections: sections(7) }, field: "sections" },
      { payload: { contact_email: "not-an-address" }, field: "contact_email" },
      { payload: { title: "" }, field: "title" },
    ];
    for (const { payload, field } of cases) {
      const res = await call("sysadmin", "syshomeedit", payload);
      expect(res.return_code, JSON.stringify(payload)).toBe("FAIL");
      expect(errorsOf(res), JSON.stringify(payload)).toContain(field);
    }
    const bad = await call("sysadmin", "syshomeedit", { sections: [{ title: "好" }, { title: "" }] });
    expect((bad.data as { errors: { message: string }[] }).errors[0].message).toBe("Sections: section 2 needs a heading, a text of at most 500 characters and a picture address (or none)");
    const kept = await call("sysv1", "syshomeedit", { sections: sections(6), slogan: "新标语" });
    expect(kept.return_code, kept.return_msg).toBe("SUCCESS");
    expect((await get("/site")).body).toContain("板块 6");
    expect((await call("sysadmin", "articleadd", { title: "x", content: "<p>x</p>", status: "archived" })).return_code).toBe("FAIL");

    for (const user of ["svc", "school"]) {
      for (const method of ["syshomeinfo", "syshomeedit", "articlelist", "articleadd"]) {
        const res = await call(user, method, { title: "x" });
        expect(res.return_code, `${user} ${method}`).toBe("FAIL");
        expect(res.return_msg).toBe(en.api.no_permission);
      }
    }
  });
  it("keeps an article's content clean, escapes its title, and shows it once published and its time has come", async () => {
    const added = await call("sysadmin", "articleadd", {
      title: "<b>放假</b>通知",
      summary: "寒假安排",
      content: '<p>寒假自 1 月 20 日起。<script>alert(1)</script><img src="https://cdn.example.com/a.png" onerror="alert(2)"><a href="javascript:alert(3)">详情</a></p>',
      status: "draft",
    });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const article = added.data?.items as Row;
    expect(article.published_at).toBeNull();
    expect(article.content).toBe('<p>寒假自 1 月 20 日起。<img src="https://cdn.example.com/a.png" /><a target="_blank" rel="noopener noreferrer">详情</a></p>');
    const url = `/site/articles/${article.id}`;
    expect((await get(url)).statusCode).toBe(404);

    const published = await call("sysadmin", "articleedit", { id: article.id, status: "published" });
    expect(published.return_code, published.return_msg).toBe("SUCCESS");
    expect(new Date(String((published.data?.items as Row).published_at)).getTime()).toBe(t.clock.now().getTime());
    const shown = await get(url);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain("&#60;b&#62;放假&#60;/b&#62;通知");
    expect(shown.body).toContain('<img src="https://cdn.example.com/a.png" />');
    expect(shown.body).not.toMatch(/<script|onerror|javascript:/i);

    // next week's article shows once its week has passed
    const future = await get("/site");
    expect(future.body).not.toContain("新学期收费指南");
    t.clock.advance(8 * DAY_MS);
    expect((await get("/site")).body).toContain("新学期收费指南");
  });
});
