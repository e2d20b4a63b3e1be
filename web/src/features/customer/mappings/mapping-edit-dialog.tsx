/**
 * @module Editing a mapping in place (`PATCH /api/mappings/{id}`): its URL, HTML, placement, SEO fields and
 * publication, its audience (docs/audiences.md) and its experiment (docs/experiments.md), the form filled with what
 * it has now. Only what the customer changed is sent; the rest stays. A chunk of its own, loaded when Edit is first pressed.
 */
import { useState, type FormEvent } from "react";
import type { Mapping } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useEditMapping } from "@/queries/mappings";
import { audienceChange, audienceOf, holdoutErrors } from "./audience-input";
import { AudienceSection } from "./audience-section";
import { experimentChange, experimentOf } from "./experiment-input";
import { ExperimentSection } from "./experiment-section";
import { extrasChange, extrasOf, MappingExtrasFields } from "./mapping-extras-fields";
import { useExperimentCheck } from "./use-experiment-check";

interface MappingEditDialogProps {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

export function MappingEditDialog({ mapping, open, onOpenChange, onCloseAutoFocus }: MappingEditDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus} className="max-h-[90vh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Edit URL mapping</DialogTitle>
          <DialogDescription className="break-all">{mapping.url}</DialogDescription>
        </DialogHeader>
        {/* Mounted afresh at each opening, so the form shows the mapping as it is now. */}
        {open && <EditForm mapping={mapping} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditForm({ mapping, onDone }: { mapping: Mapping; onDone: () => void }) {
  const [before] = useState(() => extrasOf(mapping));
  const [url, setUrl] = useState(mapping.url);
  const [htmlContent, setHtmlContent] = useState(mapping.htmlContent);
  const [extras, setExtras] = useState(before);
  const [experimentBefore] = useState(() => experimentOf(mapping));
  const [experiment, setExperiment] = useState(experimentBefore);
  const [audienceBefore] = useState(() => audienceOf(mapping));
  const [audience, setAudience] = useState(audienceBefore);
  const { errors, check, clearErrors } = useSchemaCheck((schemas) => schemas.mappingChangeBody);
  const experimentCheck = useExperimentCheck(experiment.running);
  const [holdoutProblems, setHoldoutProblems] = useState<Partial<Record<string, string>>>({});
  const edit = useEditMapping(mapping.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const change = {
      ...(url !== mapping.url ? { url } : {}),
      ...(htmlContent !== mapping.htmlContent ? { htmlContent } : {}),
      ...extrasChange(before, extras),
      ...audienceChange(audienceBefore, audience),
    };
    const experimentPart = experimentChange(experimentBefore, experiment);
    // Nothing changed: nothing to send (the API would refuse an empty change).
    if (Object.keys(change).length === 0 && Object.keys(experimentPart).length === 0) return onDone();
    // Both checked at once, so every message shows; the mapping's own fields only when one of them changed.
    const [body, experimentBody] = await Promise.all([
      Object.keys(change).length > 0 ? check(change) : (clearErrors(), {}),
      experimentCheck.check(experimentPart),
    ]);
    const holdoutFound = holdoutErrors(audience, experiment.running);
    setHoldoutProblems(holdoutFound);
    if (!body || !experimentBody || Object.keys(holdoutFound).length > 0) return;
    edit.mutate({ ...body, ...experimentBody }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="URL" error={errors.url}>
        <Input value={url} onChange={(e) => setUrl(e.target.value)} />
      </FormField>
      <FormField label="HTML Content" error={errors.htmlContent}>
        <Textarea value={htmlContent} onChange={(e) => setHtmlContent(e.target.value)} rows={8} className="font-mono" />
      </FormField>
      <MappingExtrasFields value={extras} onChange={setExtras} errors={errors} pageUrl={url} pageHtml={htmlContent} />
      <AudienceSection value={audience} onChange={setAudience} errors={{ ...holdoutProblems, ...errors }} />
      <ExperimentSection
        value={experiment}
        onChange={setExperiment}
        errors={experimentCheck.errors}
        before={experimentBefore}
        startHtml={htmlContent}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? "Saving..." : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
