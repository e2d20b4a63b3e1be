import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useAddMapping } from "@/queries/mappings";
import { audienceBody, holdoutErrors, NO_AUDIENCE } from "./audience-input";
import { AudienceSection } from "./audience-section";
import { experimentBody, NO_EXPERIMENT } from "./experiment-input";
import { ExperimentSection } from "./experiment-section";
import { extrasBody, MappingExtrasFields, NO_EXTRAS } from "./mapping-extras-fields";
import { useExperimentCheck } from "./use-experiment-check";

export function AddMappingForm() {
  const [url, setUrl] = useState("");
  const [htmlContent, setHtmlContent] = useState("");
  const [extras, setExtras] = useState(NO_EXTRAS);
  const [experiment, setExperiment] = useState(NO_EXPERIMENT);
  const [audience, setAudience] = useState(NO_AUDIENCE);
  const { errors, check } = useSchemaCheck((schemas) => schemas.mappingBody);
  const experimentCheck = useExperimentCheck(experiment.running);
  const [holdoutProblems, setHoldoutProblems] = useState<Partial<Record<string, string>>>({});
  const addMapping = useAddMapping();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const [body, experimentFields] = await Promise.all([
      check({ url, htmlContent, ...extrasBody(extras), ...audienceBody(audience) }),
      experimentCheck.check(experimentBody(experiment)),
    ]);
    const holdoutFound = holdoutErrors(audience, experiment.running);
    setHoldoutProblems(holdoutFound);
    if (!body || !experimentFields || Object.keys(holdoutFound).length > 0) return;
    addMapping.mutate(
      { ...body, ...experimentFields },
      {
        onSuccess: () => {
          setUrl("");
          setHtmlContent("");
          setExtras(NO_EXTRAS);
          setExperiment(NO_EXPERIMENT);
          setAudience(NO_AUDIENCE);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="URL" error={errors.url}>
        <Input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/page" />
      </FormField>
      <FormField label="HTML Content" error={errors.htmlContent}>
        <Textarea
          value={htmlContent}
          onChange={(e) => setHtmlContent(e.target.value)}
          placeholder="<div>Your content here</div>"
          rows={5}
        />
      </FormField>
      <MappingExtrasFields value={extras} onChange={setExtras} errors={errors} pageUrl={url} pageHtml={htmlContent} />
      <AudienceSection value={audience} onChange={setAudience} errors={{ ...holdoutProblems, ...errors }} />
      <ExperimentSection value={experiment} onChange={setExperiment} errors={experimentCheck.errors} />
      <Button type="submit" disabled={addMapping.isPending}>
        {addMapping.isPending ? "Adding..." : "Add Mapping"}
      </Button>
    </form>
  );
}
