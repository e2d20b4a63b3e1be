import { PageContainer } from "@/components/layout/page-container";

/** A screen whose content comes in a later release: its title, so links to it land somewhere real. */
export function ScreenPlaceholderPage({ title }: { title: string }) {
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">{title}</h1>
    </PageContainer>
  );
}
