/** Registers a webhook; its signing secret is shown once, with a copy button, until dismissed. */
import { useState, type FormEvent } from "react";
import type { CreatedWebhook } from "#contract/webhooks";
import { CopyButton } from "@/components/copy-button";
import { CodeBlock } from "@/components/code-block";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { describeError } from "@/lib/api";
import { useAddWebhook } from "@/queries/webhooks";

function SecretOnce({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <section aria-label="Signing secret" className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-4">
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-medium">Signing secret</h4>
        <CopyButton text={webhook.secret} label="Copy signing secret" />
      </div>
      <CodeBlock code={webhook.secret} />
      <p className="text-sm text-muted-foreground">
        Copy it now: it is shown only this once. Your endpoint at <span className="break-all">{webhook.url}</span> uses
        it to check the <span className="font-mono">X-DC-Signature</span> header of every event.
      </p>
      <Button type="button" variant="outline" size="sm" onClick={onDone}>
        Done
      </Button>
    </section>
  );
}

export function AddWebhookForm() {
  const add = useAddWebhook();
  const [url, setUrl] = useState("");
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(
      { url },
      {
        onSuccess: (webhook) => {
          setCreated(webhook);
          setUrl("");
        },
      },
    );
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="Webhook URL" error={add.isError ? describeError(add.error) : undefined}>
          <Input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/webhooks/dynamic-content"
          />
        </FormField>
        <Button type="submit" variant="outline" disabled={add.isPending || url.trim() === ""}>
          {add.isPending ? "Adding..." : "Add webhook"}
        </Button>
      </form>
      {created && <SecretOnce webhook={created} onDone={() => setCreated(null)} />}
    </div>
  );
}
