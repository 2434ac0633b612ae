/**
 * Payment vouchers (custom page "vouchers" at orderprints / orderprintsv2): the voucher of a paid order, opened from
 * its row or record, or of every paid order of a list's selection (`?ids=`), each on an A5 sheet headed by the
 * school's name, followed by a refund receipt for each of the order's done refunds. Print prints the vouchers alone, one A5 page each (vouchers.css: no console around them);
 * Download PDF saves the server's PDF of the same vouchers (orderprintpdf).
 */
import { Alert, Button, Card, Grid, Space, Spin, Typography } from "antd";
import { DownloadOutlined, PrinterOutlined, RollbackOutlined } from "@ant-design/icons";
import { useCustom, useGo, useTranslation } from "@refinedev/core";
import { useState } from "react";
import { createPortal } from "react-dom";
import { useParams, useSearchParams } from "react-router";
import { businessTime } from "../../../common/term";
import { scope } from "../../../providers/dataProvider";
import { weapi } from "../../../providers/weapi";
import { saveFile, type ExportFile } from "../../engine/files";
import { currentTabs } from "../../shell/tabs";
import type { CustomPageProps } from "..";
import { refundReceiptRows, type RefundReceipt, type Voucher } from "../../../common/voucher";
import "./vouchers.css";


/** A sheet's head: the school, the sheet's title, its number and its time. */
function SheetHead(props: { school: string; schoolTestId?: string; title: string; numberLabel: string; number: string; numberTestId: string; time: string }) {
  return (
    <>
      <header className="voucher-head">
        <h2 data-testid={props.schoolTestId}>{props.school}</h2>
        <div className="voucher-title">{props.title}</div>
      </header>
      <div className="voucher-meta">
        <span>
          {props.numberLabel}: <strong data-testid={props.numberTestId}>{props.number}</strong>
        </span>
        <span>{props.time}</span>
      </div>
    </>
  );
}

/** A sheet's foot: the payee's stamp, who handled it, and the sheet's note. */
function SheetFoot({ school, label, note }: { school: string; label: (key: string) => string; note: string }) {
  return (
    <>
      <footer className="voucher-sign">
        <span>
          {label("payee")}: {school}
        </span>
        <span>{label("handled_by")}:</span>
      </footer>
      <p className="voucher-note">{note}</p>
    </>
  );
}

function VoucherSheet({ voucher: v, t }: { voucher: Voucher; t: (key: string) => string }) {
  const label = (key: string) => t(`collection.voucher.${key}`);
  return (
    <article className="voucher" data-testid="voucher">
      <SheetHead school={v.school} schoolTestId="voucher-school" title={v.voucher_title || label("title")} numberLabel={label("receipt_no")} number={v.receipt_no} numberTestId="voucher-receipt-no" time={`${label("paid_at")}: ${businessTime(new Date(v.paid_at))}`} />
      <table className="voucher-table">
        <tbody>
          <tr>
            <th>{label("student")}</th>
            <td data-testid="voucher-student">
              {v.student}
              {v.student_no ? ` (${v.student_no})` : ""}
            </td>
          </tr>
          <tr>
            <th>{label("class")}</th>
            <td>{v.class}</td>
          </tr>
        </tbody>
      </table>
      <table className="voucher-table voucher-items">
        <colgroup>
          <col className="voucher-item-title" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th>{label("items")}</th>
            <th className="num">{label("item_amount")}</th>
          </tr>
        </thead>
        <tbody>
          {v.items.map((item, i) => (
            <tr key={i}>
              <td>{item.title}</td>
              <td className="num">{item.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>{label("amount")}</th>
            <td className="num" data-testid="voucher-amount">
              {v.amount}
            </td>
          </tr>
          <tr>
            {/* one cell across the table: the words need the width the items' titles have */}
            <td colSpan={2}>
              {label("amount_in_words")}: <strong data-testid="voucher-amount-words">{v.amount_in_words}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
      <dl className="voucher-facts">
        <dt>{label("transaction_id")}</dt>
        <dd>{v.transaction_id}</dd>
        <dt>{label("order_no")}</dt>
        <dd>{v.order_no}</dd>
        {v.status !== "paid" && (
          <>
            <dt>{label("refunded")}</dt>
            <dd>{v.refunded_amount}</dd>
          </>
        )}
      </dl>
      {v.duplicate === "Y" && <p className="voucher-flag">{label("duplicate")}</p>}
      <SheetFoot school={v.school} label={label} note={label("note")} />
    </article>
  );
}

/** A done refund's receipt, on an A5 sheet like its payment voucher's. */
function RefundSheet({ voucher: v, refund: r, t }: { voucher: Voucher; refund: RefundReceipt; t: (key: string) => string }) {
  const label = (key: string) => t(`collection.voucher.${key}`);
  const rows = refundReceiptRows(v, r, { label, time: (iso) => businessTime(new Date(iso)) });
  return (
    <article className="voucher" data-testid="refund-receipt">
      <SheetHead school={v.school} title={label("refund_title")} numberLabel={label("refund_no")} number={r.refund_no} numberTestId="refund-receipt-no" time={`${label("refunded_at")}: ${businessTime(new Date(r.success_time))}`} />
      <table className="voucher-table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th>{row.label}</th>
              <td data-testid={row.key ? `refund-receipt-${row.key}` : undefined}>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="voucher-facts">
        <dt>{label("refund_id")}</dt>
        <dd>{r.refund_id}</dd>
        <dt>{label("order_no")}</dt>
        <dd>{v.order_no}</dd>
      </dl>
      <SheetFoot school={v.school} label={label} note={label("refund_note")} />
    </article>
  );
}

/** A voucher and the receipts of its order's done refunds. */
function OrderSheets({ voucher, t }: { voucher: Voucher; t: (key: string) => string }) {
  return (
    <>
      <VoucherSheet voucher={voucher} t={t} />
      {voucher.refunds.map((refund) => (
        <RefundSheet key={refund.refund_no} voucher={voucher} refund={refund} t={t} />
      ))}
    </>
  );
}

export default function VoucherPrintPage({ entry, group }: CustomPageProps) {
  const { translate } = useTranslation();
  const t = (key: string, options?: Record<string, unknown>) => translate(key, options);
  const go = useGo();
  const { id } = useParams();
  const [search] = useSearchParams();
  const ids = (search.get("ids") ?? id ?? "").split(",").filter((part) => /^\d{1,10}$/.test(part));
  const [downloading, setDownloading] = useState(false);
  const { query, result } = useCustom<Voucher[]>({
    url: "orderprint",
    method: "post",
    config: { payload: { ...scope(), ids } },
    queryOptions: { enabled: ids.length > 0, queryKey: ["orderprint", ids.join(",")] },
    errorNotification: false,
    successNotification: false,
  });
  const vouchers = query.isSuccess && Array.isArray(result.data) ? result.data : [];

  const downloadPdf = async () => {
    setDownloading(true);
    try {
      const res = await weapi<{ items?: ExportFile }>("adminapiv2", "orderprintpdf", { ...scope(), ids });
      if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
    } finally {
      setDownloading(false);
    }
  };
  const narrow = Grid.useBreakpoint().lg === false;
  // back to the order list as its tab left it
  const list = group.children.find((e) => e.name === entry.activeMenu);
  const toList = () => {
    const route = list ? `/${group.path}/${list.name}` : undefined;
    if (route) go({ to: currentTabs().find((tab) => tab.key === route)?.path ?? route });
  };

  const buttons = (
    <Space wrap>
      <Button type="primary" icon={<PrinterOutlined />} disabled={vouchers.length === 0} onClick={() => window.print()} data-testid="voucher-print">
        {t("collection.voucher.print")}
      </Button>
      <Button icon={<DownloadOutlined />} disabled={vouchers.length === 0} loading={downloading} onClick={() => void downloadPdf()} data-testid="voucher-pdf">
        {t("collection.voucher.download_pdf")}
      </Button>
      {list && (
        <Button icon={<RollbackOutlined />} onClick={toList}>
          {t("crud.back")}
        </Button>
      )}
    </Space>
  );
  return (
    // on a phone the buttons go under the title, which they would squeeze out of the card's head
    <Card title={translate(entry.title)} extra={narrow ? undefined : buttons}>
      {narrow && <div style={{ marginBottom: 12 }}>{buttons}</div>}
      {ids.length === 0 && <Alert type="info" message={t("collection.voucher.none")} />}
      {query.isError && <Alert type="error" message={query.error?.message} data-testid="voucher-error" />}
      <Spin spinning={query.isLoading && ids.length > 0}>
        {vouchers.length > 1 && <Typography.Paragraph type="secondary">{t("collection.voucher.count", { count: vouchers.length })}</Typography.Paragraph>}
        <div className="voucher-sheets">
          {vouchers.map((v) => (
            <OrderSheets key={v.id} voucher={v} t={t} />
          ))}
        </div>
      </Spin>
      {/* what the printer gets: the vouchers alone, beside the console rather than inside it (vouchers.css) */}
      {vouchers.length > 0 &&
        createPortal(
          <div className="voucher-print" aria-hidden="true">
            {vouchers.map((v) => (
              <OrderSheets key={v.id} voucher={v} t={t} />
            ))}
          </div>,
          document.body,
        )}
    </Card>
  );
}
