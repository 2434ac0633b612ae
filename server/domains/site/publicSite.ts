/**
 * The platform's public website, server-rendered: the home page at /site (the words, sections and contact of the
 * settings page `syshome`, and the latest articles), the articles at /site/articles (ten a page) and each at
 * /site/articles/{id} (catalogue/website.ts). Plain HTML with one small inline style and no script, in the
 * reader's language (its cookie or Accept-Language), so that a phone opens it fast; answers compressed and kept by
 * browsers and proxies a minute. An article shows once published and its publishing time has come. The login page
 * links here.
 *
 * Also the articles' hooks: the time an article is first published at is stamped where none was given, and every
 * save stamps the time it changed.
 */
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { homeSettings } from "../../../catalogue/website";
import type { HomeSection } from "../../../common/siteHome";
import type { DbOrTx } from "../../db/client";
import { siteArticles } from "../../db/schema";
import type { EntityHooks, Row } from "../../engine/hooks";
import { PLATFORM_TENANT, readSettings } from "../../engine/settings";
import { escapeHtml } from "../../lib/htmlPage";
import { requestLanguage, translator, type Language, type Translate } from "../../lib/i18n";
import type { AppServices } from "../../protocol/registry";
import { MAX_INT } from "../../protocol/validation";

export const SITE_PATH = "/site";
/** articles a page of the list shows */
export const SITE_ARTICLES_PER_PAGE = 10;
/** the latest articles the home page shows */
const HOME_ARTICLES = 3;
/** how long a browser or proxy may keep a page, in seconds: an edit shows within a minute */
const SITE_MAX_AGE = 60;
/** the most pages of articles the list goes to (a page number beyond is no page) */
const MAX_PAGE = 10_000;

/** an uploaded image's address (server/uploads/keys.ts): its narrower copies are named by their width */
const UPLOADED_IMAGE = /^(?:https?:\/\/[^/]+)?(\/files\/img\/[0-9a-f]{64})_(\d+)\.webp$/;

/**
 * An image the server keeps, from the site's own address (whichever address it was uploaded at) and at most `width`
 * wide where a narrower copy is kept; any other image as it is.
 */
export function siteImage(url: string, width: 480 | 1080): string {
  const match = UPLOADED_IMAGE.exec(url);
  if (!match) return url;
  return `${match[1]}_${Math.min(Number(match[2]), width)}.webp`;
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f1f1f;line-height:1.6;background:#f7f8fa}
a{color:#1677ff;text-decoration:none}a:hover{text-decoration:underline}img{max-width:100%;height:auto}
header,main,footer{max-width:1080px;margin:0 auto;padding:0 16px}
header{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:56px;flex-wrap:wrap}
header .brand{font-weight:600;font-size:18px;color:#1f1f1f}nav{display:flex;gap:16px;flex-wrap:wrap}
main{overflow-wrap:anywhere}.hero{background:#fff;border-radius:12px;padding:32px 24px;margin:8px 0 24px;display:grid;grid-template-columns:minmax(0,1fr);gap:24px;align-items:center}
.hero h1{margin:0 0 8px;font-size:28px;line-height:1.3}.hero p{margin:0;color:#595959;font-size:17px}.hero img{border-radius:8px}
@media(min-width:768px){.hero.pic{grid-template-columns:1fr 1fr}.hero h1{font-size:36px}}
.grid{display:grid;gap:16px;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));margin-bottom:24px}
.card{background:#fff;border-radius:12px;padding:20px;overflow:hidden}.card h2,.card h3{margin:0 0 8px;font-size:18px}.card p{margin:0;color:#595959}
.card img{display:block;margin:-20px -20px 16px;max-width:calc(100% + 40px);width:calc(100% + 40px);aspect-ratio:16/9;object-fit:cover}
.list{display:grid;gap:12px;margin-bottom:24px}.item{display:flex;gap:16px;background:#fff;border-radius:12px;padding:16px}
.item img{width:120px;height:80px;object-fit:cover;border-radius:6px;flex:none}.item h2{margin:0 0 4px;font-size:17px}.item p{margin:0;color:#595959;font-size:14px}
.meta{color:#8c8c8c;font-size:13px}.article{background:#fff;border-radius:12px;padding:24px;margin-bottom:24px}.article h1{margin:0 0 8px;font-size:26px;line-height:1.35}
.pager{display:flex;justify-content:space-between;margin-bottom:24px}.contact{background:#fff;border-radius:12px;padding:20px;margin-bottom:24px}
.contact dl{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0}.contact dt{color:#8c8c8c;white-space:nowrap}.contact dd{margin:0}
footer{color:#8c8c8c;font-size:13px;padding:16px;text-align:center}footer p{margin:4px 0}`;

type HomeRecord = Record<string, unknown> & { sections?: HomeSection[] | null };

function text(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A day in the business time zone, as the site shows an article's date. */
function dayOf(value: unknown): string {
  if (!(value instanceof Date) && typeof value !== "string") return "";
  return new Date(new Date(value).getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

interface PageParts {
  lang: Language;
  t: Translate;
  home: HomeRecord;
  /** the page's own title, before the site's (none: the home page) */
  title?: string;
  description?: string;
  body: string;
}

function page({ lang, t, home, title, description, body }: PageParts): string {
  const siteTitle = text(home.title);
  const fullTitle = title ? `${title} - ${siteTitle}` : text(home.seo_title) || siteTitle;
  const footer = [
    home.footer ? `<p>${escapeHtml(text(home.footer))}</p>` : "",
    home.icp ? `<p><a href="https://beian.miit.gov.cn/" rel="noopener noreferrer" target="_blank">${escapeHtml(text(home.icp))}</a></p>` : "",
  ].join("");
  return `<!doctype html>
<html lang="${lang === "zh" ? "zh-CN" : lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(fullTitle)}</title>
<meta name="description" content="${escapeHtml(description ?? text(home.seo_description))}">${home.seo_keywords ? `<meta name="keywords" content="${escapeHtml(text(home.seo_keywords))}">` : ""}
<link rel="icon" type="image/svg+xml" href="/favicon.svg"><style>${STYLE}</style></head>
<body><header><a class="brand" href="${SITE_PATH}">${escapeHtml(siteTitle)}</a><nav><a href="${SITE_PATH}" data-testid="site-nav-home">${escapeHtml(t("site.public.home"))}</a><a href="${SITE_PATH}/articles" data-testid="site-nav-articles">${escapeHtml(t("site.public.articles"))}</a><a href="/login" data-testid="site-nav-login">${escapeHtml(t("site.public.login"))}</a></nav></header>
<main>${body}</main><footer>${footer}</footer></body></html>`;
}

function articleItem(t: Translate, article: Row): string {
  const cover = article.cover ? `<img src="${escapeHtml(siteImage(text(article.cover), 480))}" alt="" loading="lazy" width="120" height="80">` : "";
  return `<a class="item" href="${SITE_PATH}/articles/${Number(article.id)}" data-testid="site-article">${cover}<div><h2>${escapeHtml(text(article.title))}</h2><p class="meta">${escapeHtml(t("site.public.published_on", { day: dayOf(article.published_at) }))}</p>${article.summary ? `<p>${escapeHtml(text(article.summary))}</p>` : ""}</div></a>`;
}

function homeBody(t: Translate, home: HomeRecord, latest: Row[]): string {
  const hero = home.hero_image ? `<img src="${escapeHtml(siteImage(text(home.hero_image), 1080))}" alt="">` : "";
  const sections = (home.sections ?? [])
    .map((s) => `<section class="card">${s.image ? `<img src="${escapeHtml(siteImage(s.image, 480))}" alt="" loading="lazy" width="480" height="270">` : ""}<h2>${escapeHtml(s.title)}</h2><p>${escapeHtml(s.text)}</p></section>`)
    .join("");
  const contact = [
    ["site.home.contact_phone", home.contact_phone],
    ["site.home.contact_email", home.contact_email],
    ["site.home.contact_address", home.contact_address],
  ]
    .filter(([, value]) => value)
    .map(([label, value]) => `<dt>${escapeHtml(t(String(label)))}</dt><dd>${escapeHtml(text(value))}</dd>`)
    .join("");
  return [
    `<section class="hero${hero ? " pic" : ""}"><div><h1 data-testid="site-title">${escapeHtml(text(home.title))}</h1>${home.slogan ? `<p data-testid="site-slogan">${escapeHtml(text(home.slogan))}</p>` : ""}</div>${hero}</section>`,
    sections ? `<div class="grid" data-testid="site-sections">${sections}</div>` : "",
    latest.length > 0 ? `<h2>${escapeHtml(t("site.public.latest"))}</h2><div class="list">${latest.map((a) => articleItem(t, a)).join("")}</div><p><a href="${SITE_PATH}/articles">${escapeHtml(t("site.public.all_articles"))}</a></p>` : "",
    contact ? `<section class="contact" data-testid="site-contact"><h2>${escapeHtml(t("site.public.contact"))}</h2><dl>${contact}</dl></section>` : "",
  ].join("");
}

/** the condition of an article a reader may see now */
function shown(now: Date) {
  return and(eq(siteArticles.status, "published"), lte(siteArticles.published_at, now));
}

const listColumns = { id: siteArticles.id, title: siteArticles.title, cover: siteArticles.cover, summary: siteArticles.summary, published_at: siteArticles.published_at };

async function latestArticles(db: DbOrTx, now: Date, limit: number, offset = 0): Promise<Row[]> {
  return db.select(listColumns).from(siteArticles).where(shown(now)).orderBy(desc(siteArticles.sort), desc(siteArticles.published_at), desc(siteArticles.id)).limit(limit).offset(offset);
}

export function registerPublicSite(app: FastifyInstance, services: AppServices): void {
  const send = (reply: FastifyReply, html: string, status = 200) =>
    reply
      .status(status)
      .type("text/html; charset=utf-8")
      // its language follows the reader's cookie and Accept-Language
      .header("vary", "accept-language, cookie, accept-encoding")
      .header("cache-control", status === 200 ? `public, max-age=${SITE_MAX_AGE}` : "no-store")
      // articles may show pictures of other https sites; nothing else is loaded from elsewhere, and nothing runs
      .header("content-security-policy", "default-src 'none'; img-src 'self' data: https:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
      .send(html);
  const context = async (request: FastifyRequest) => {
    const lang = requestLanguage(request.headers);
    const home = (await readSettings(services.db, homeSettings, PLATFORM_TENANT)) as HomeRecord;
    return { lang, t: translator(lang), home };
  };
  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang, t, home } = await context(request);
    const body = `<div class="article" data-testid="site-not-found"><h1>${escapeHtml(t("site.public.not_found"))}</h1><p><a href="${SITE_PATH}/articles">${escapeHtml(t("site.public.all_articles"))}</a></p></div>`;
    return send(reply, page({ lang, t, home, title: t("site.public.not_found"), body }), 404);
  };

  app.get(SITE_PATH, async (request, reply) => {
    const { lang, t, home } = await context(request);
    const latest = await latestArticles(services.db, services.clock.now(), HOME_ARTICLES);
    return send(reply, page({ lang, t, home, body: homeBody(t, home, latest) }));
  });

  app.get<{ Querystring: { page?: string } }>(`${SITE_PATH}/articles`, async (request, reply) => {
    const raw = request.query.page ?? "1";
    const number = /^[1-9][0-9]{0,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(number <= MAX_PAGE)) return notFound(request, reply);
    const { lang, t, home } = await context(request);
    const now = services.clock.now();
    const [{ total }] = await services.db.select({ total: sql<number>`count(*)::int` }).from(siteArticles).where(shown(now));
    const pages = Math.max(1, Math.ceil(Number(total) / SITE_ARTICLES_PER_PAGE));
    if (number > pages) return notFound(request, reply);
    const articles = await latestArticles(services.db, now, SITE_ARTICLES_PER_PAGE, (number - 1) * SITE_ARTICLES_PER_PAGE);
    const pager =
      pages > 1
        ? `<nav class="pager"><span>${number > 1 ? `<a href="${SITE_PATH}/articles?page=${number - 1}" data-testid="site-prev">${escapeHtml(t("site.public.newer"))}</a>` : ""}</span><span class="meta">${number} / ${pages}</span><span>${number < pages ? `<a href="${SITE_PATH}/articles?page=${number + 1}" data-testid="site-next">${escapeHtml(t("site.public.older"))}</a>` : ""}</span></nav>`
        : "";
    const list = articles.length > 0 ? `<div class="list">${articles.map((a) => articleItem(t, a)).join("")}</div>` : `<p class="meta" data-testid="site-no-articles">${escapeHtml(t("site.public.no_articles"))}</p>`;
    return send(reply, page({ lang, t, home, title: t("site.public.articles"), body: `<h1>${escapeHtml(t("site.public.articles"))}</h1>${list}${pager}` }));
  });

  app.get<{ Params: { id: string } }>(`${SITE_PATH}/articles/:id`, async (request, reply) => {
    if (!/^[1-9][0-9]{0,9}$/.test(request.params.id) || Number(request.params.id) > MAX_INT) return notFound(request, reply);
    const [article] = await services.db
      .select({ ...listColumns, content: siteArticles.content })
      .from(siteArticles)
      .where(and(eq(siteArticles.id, Number(request.params.id)), shown(services.clock.now())));
    if (!article) return notFound(request, reply);
    const { lang, t, home } = await context(request);
    // the content was kept to the rich text's allow-list when it was saved
    const body = `<article class="article"><h1 data-testid="site-article-title">${escapeHtml(article.title)}</h1><p class="meta">${escapeHtml(t("site.public.published_on", { day: dayOf(article.published_at) }))}</p>${article.cover ? `<p><img src="${escapeHtml(siteImage(article.cover, 1080))}" alt=""></p>` : ""}<div data-testid="site-article-content">${article.content}</div></article><p><a href="${SITE_PATH}/articles">${escapeHtml(t("site.public.all_articles"))}</a></p>`;
    return send(reply, page({ lang, t, home, title: article.title, description: article.summary ?? undefined, body }));
  });
}

/** An article's publishing time, stamped when it is first published without one; its change time on every save. */
export const articleHooks: EntityHooks = {
  beforeAdd: (ctx, _scope, record) => {
    record.updated_at = ctx.now;
    if (record.status === "published" && !record.published_at) record.published_at = ctx.now;
  },
  afterEdit: async (ctx, tx, _before, after) => {
    // the answer is the row as stored
    after.updated_at = ctx.now;
    if (after.status === "published" && !after.published_at) after.published_at = ctx.now;
    await tx.update(siteArticles).set({ updated_at: ctx.now, published_at: after.published_at as Date | null }).where(eq(siteArticles.id, Number(after.id)));
  },
};
