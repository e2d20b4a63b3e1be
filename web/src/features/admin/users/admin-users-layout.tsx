import { PageContainer } from "@/components/layout/page-container";
import { TooltipProvider } from "@/components/ui/tooltip";
import { OverviewTabs } from "./overview-tabs";
import { UserDetailData } from "./user-detail-data";

interface AdminUsersLayoutProps {
  selectedUserId: string | null;
  onSelectUser: (userId: string) => void;
  onBack: () => void;
}

export function AdminUsersLayout({ selectedUserId, onSelectUser, onBack }: AdminUsersLayoutProps) {
  return (
    <TooltipProvider delayDuration={200}>
      <PageContainer className="space-y-6">
        <h1 className="text-3xl font-bold">User Management</h1>
        {selectedUserId ? (
          <UserDetailData key={selectedUserId} userId={selectedUserId} onBack={onBack} />
        ) : (
          <OverviewTabs onSelectUser={onSelectUser} />
        )}
      </PageContainer>
    </TooltipProvider>
  );
}
