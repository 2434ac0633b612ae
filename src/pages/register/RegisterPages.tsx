/**
 * The public registration pages (server/domains/providers/registrations.ts): /register, where an organisation
 * applies to become a provider (its licence's pictures uploaded as an applicant, held to a few a minute per
 * address), and /register/{token}, where the applicant follows its application by the link it was given, reads a
 * rejection's reason, and once approved sets its administrator's password through the one-time link the page is
 * given. A lazy chunk of its own: the login page stays small.
 */
import { CheckCircleOutlined, CopyOutlined, PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Form, Input, Result, Select, Skeleton, Space, Typography, Upload, type FormInstance, type UploadFile, type UploadProps } from "antd";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Route, Routes, useNavigate, useParams } from "react-router";
import { PROVINCE_CODES, provinceNameKey } from "../../../common/provinces";
import { weapi, type Envelope } from "../../../providers/weapi";
import { IMAGE_ACCEPT, IMAGE_MAX_MB, sendImage } from "../../engine/ImageUpload";
import { LanguageSwitch } from "../../LanguageSwitch";
import { useSiteSettings } from "../../lib/site";

/** the most licence pictures an application holds (catalogue/registrations.ts licence_images) */
const MAX_LICENCES = 3;

interface Application {
  org: string;
  contact: string;
  mobile: string;
  email: string;
  region: string;
  licence_images: string[];
  message?: string;
}

interface ApplicationStatus {
  org: string;
  status: "pending" | "approved" | "rejected";
  reject_reason: string | null;
  username: string | null;
  password_set: boolean;
  password_token: string | null;
}

/** The server's refusals under their fields, as the console's forms show them. */
type FieldErrors<T> = Parameters<FormInstance<T>["setFields"]>[0];

function fieldErrors<T>(res: Envelope<unknown>): FieldErrors<T> {
  const errors = (res.data as { errors?: { field: string; message: string }[] } | undefined)?.errors ?? [];
  // the server names the form's own fields
  return errors.map((e) => ({ name: e.field as FieldErrors<T>[number]["name"], errors: [e.message] }));
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const site = useSiteSettings();
  return (
    <div style={{ minHeight: "100vh", background: "#f5f7fa", padding: "24px 12px" }}>
      <div style={{ maxWidth: 640, margin: "0 auto" }}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16, gap: 8 }}>
          <a href="/site" style={{ fontWeight: 600, fontSize: 16, color: "inherit", textDecoration: "none" }}>
            {site.title}
          </a>
          <LanguageSwitch />
        </div>
        <Card title={title} data-testid="register-card">
          {children}
        </Card>
      </div>
    </div>
  );
}

/** The licence's pictures, each sent as the applicant's upload. */
function LicenceUpload({ value = [], onChange }: { value?: string[]; onChange?: (urls: string[]) => void }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState<UploadFile[]>([]);
  const files: UploadFile[] = [...value.map((url, i) => ({ uid: `${i}:${url}`, name: url.split("/").pop() ?? url, status: "done" as const, url, thumbUrl: url })), ...sending];
  const customRequest: UploadProps["customRequest"] = ({ file }) => {
    const chosen = file as File & { uid: string };
    setSending((list) => [...list, { uid: chosen.uid, name: chosen.name, status: "uploading", percent: 0 }]);
    sendImage(
      chosen,
      {
        onProgress: (percent) => setSending((list) => list.map((f) => (f.uid === chosen.uid ? { ...f, percent } : f))),
        onDone: (sent) => {
          setSending((list) => list.filter((f) => f.uid !== chosen.uid));
          if ("url" in sent) onChange?.([...value, sent.url].slice(0, MAX_LICENCES));
          else setFailure(sent.failure || t(sent.network ? "errors.network" : "errors.system"));
        },
      },
      "applicant",
    );
  };
  return (
    <>
      <Upload
        listType="picture-card"
        accept={IMAGE_ACCEPT.join(",")}
        fileList={files}
        customRequest={customRequest}
        beforeUpload={(file) => {
          setFailure(null);
          if (!IMAGE_ACCEPT.includes(file.type)) return (setFailure(t("uploads.not_image")), Upload.LIST_IGNORE);
          if (file.size > IMAGE_MAX_MB * 1024 * 1024) return (setFailure(t("uploads.too_large", { max: IMAGE_MAX_MB })), Upload.LIST_IGNORE);
          return true;
        }}
        onRemove={(file) => {
          if (file.url) onChange?.(value.filter((url) => url !== file.url));
          return false;
        }}
        data-testid="register-licence"
      >
        {files.length < MAX_LICENCES && <PlusOutlined />}
      </Upload>
      {failure && <Typography.Text type="danger">{failure}</Typography.Text>}
    </>
  );
}

function ApplyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Application>();
  const [submitting, setSubmitting] = useState(false);
  const regions = useMemo(() => PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceNameKey(code)) })), [t]);
  const onFinish = async (values: Application) => {
    setSubmitting(true);
    try {
      const res = await weapi<{ items: { follow_token: string } }>("adminapiv2", "registerapply", { ...values, message: values.message ?? null });
      if (res.return_code === "SUCCESS" && res.data?.items.follow_token) navigate(`/register/${res.data.items.follow_token}`, { replace: true });
      else form.setFields(fieldErrors(res));
    } finally {
      setSubmitting(false);
    }
  };
  const required = (label: string) => [{ required: true, whitespace: true, message: t("validation.required", { label: t(label) }) }];
  return (
    <Frame title={t("register.page.title")}>
      <Typography.Paragraph type="secondary">{t("register.page.intro")}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} requiredMark data-testid="register-form">
        <Form.Item name="org" label={t("register.field.org")} rules={required("register.field.org")}>
          <Input maxLength={100} autoComplete="organization" />
        </Form.Item>
        <Space.Compact block style={{ gap: 12, display: "flex", flexWrap: "wrap" }}>
          <Form.Item name="contact" label={t("register.field.contact")} rules={required("register.field.contact")} style={{ flex: "1 1 200px" }}>
            <Input maxLength={50} autoComplete="name" />
          </Form.Item>
          <Form.Item name="mobile" label={t("register.field.mobile")} rules={required("register.field.mobile")} style={{ flex: "1 1 200px" }}>
            <Input maxLength={20} inputMode="tel" autoComplete="tel" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="email" label={t("register.field.email")} rules={required("register.field.email")}>
          <Input maxLength={100} inputMode="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="region" label={t("register.field.region")} rules={[{ required: true, message: t("validation.select_required", { label: t("register.field.region") }) }]}>
          <Select options={regions} showSearch optionFilterProp="label" placeholder={t("register.page.region_placeholder")} data-testid="register-region" />
        </Form.Item>
        <Form.Item
          name="licence_images"
          label={t("register.field.licence_images")}
          extra={t("register.page.licence_hint")}
          rules={[{ required: true, type: "array", min: 1, message: t("validation.select_required", { label: t("register.field.licence_images") }) }]}
        >
          <LicenceUpload />
        </Form.Item>
        <Form.Item name="message" label={t("register.field.message")}>
          <Input.TextArea maxLength={500} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="register-submit">
          {t("register.page.submit")}
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: "center" }}>
        <Link to="/login">{t("register.page.have_account")}</Link>
      </div>
    </Frame>
  );
}

function PasswordForm({ token, username, onDone }: { token: string; username: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string; password2: string }>();
  const [saving, setSaving] = useState(false);
  const onFinish = async (values: { password: string; password2: string }) => {
    setSaving(true);
    try {
      const res = await weapi("adminapiv2", "registerpassword", { token, ...values });
      if (res.return_code === "SUCCESS") onDone();
      else form.setFields(fieldErrors(res));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} data-testid="register-password-form" style={{ maxWidth: 360 }}>
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <Form.Item name="password" label={t("register.field.password")} rules={[{ required: true, min: 6, message: t("dialog.password_short") }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="password2" label={t("register.field.password2")} dependencies={["password"]} rules={[{ required: true, message: t("validation.required", { label: t("register.field.password2") }) }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="register-password-submit">
        {t("register.page.set_password")}
      </Button>
    </Form>
  );
}

function FollowPage() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const [status, setStatus] = useState<ApplicationStatus | null | "unknown">(null);
  const [copied, setCopied] = useState(false);
  const load = () =>
    void weapi<{ items: ApplicationStatus }>("adminapiv2", "registerstatus", { token }, { silent: true }).then(
      (res) => setStatus(res.return_code === "SUCCESS" && res.data ? res.data.items : "unknown"),
      () => setStatus("unknown"),
    );
  useEffect(load, [token]);

  if (status === null) {
    return (
      <Frame title={t("register.page.follow_title")}>
        <Skeleton active />
      </Frame>
    );
  }
  if (status === "unknown") {
    return (
      <Frame title={t("register.page.follow_title")}>
        <Result status="warning" title={t("register.errors.unknown_link")} extra={<Link to="/register">{t("register.page.apply_again")}</Link>} />
      </Frame>
    );
  }
  const copy = () => void navigator.clipboard?.writeText(window.location.href).then(() => setCopied(true));
  const done = status.status === "approved" && status.password_set;
  return (
    <Frame title={t("register.page.follow_title")}>
      <Typography.Title level={5} data-testid="register-org">
        {status.org}
      </Typography.Title>
      {status.status === "pending" && (
        <div data-testid="register-status-pending">
          <Result status="info" title={t("register.status.pending")} subTitle={t("register.page.pending_text")} />
        </div>
      )}
      {status.status === "rejected" && (
        <div data-testid="register-status-rejected">
        <Result
          status="error"
          title={t("register.status.rejected")}
          subTitle={<span data-testid="register-reject-reason">{t("register.page.rejected_text", { reason: status.reject_reason ?? "" })}</span>}
          extra={<Link to="/register">{t("register.page.apply_again")}</Link>}
        />
        </div>
      )}
      {status.status === "approved" && (
        <div data-testid="register-status-approved">
        <Result
          status="success"
          icon={<CheckCircleOutlined />}
          title={t("register.status.approved")}
          subTitle={done ? t("register.page.password_done", { username: status.username ?? "" }) : t("register.page.approved_text", { username: status.username ?? "" })}
          extra={done ? <Link to="/login" data-testid="register-sign-in">{t("register.page.sign_in")}</Link> : null}
        >
          {!done && status.password_token && <PasswordForm token={status.password_token} username={status.username ?? ""} onDone={load} />}
        </Result>
        </div>
      )}
      {!done && (
        <Alert
          type="info"
          showIcon
          message={t("register.page.follow_hint")}
          action={
            <Button size="small" icon={<CopyOutlined />} onClick={copy}>
              {copied ? t("register.page.copied") : t("register.page.copy_link")}
            </Button>
          }
        />
      )}
    </Frame>
  );
}

export default function RegisterPages() {
  return (
    <Routes>
      <Route index element={<ApplyPage />} />
      <Route path=":token" element={<FollowPage />} />
    </Routes>
  );
}
