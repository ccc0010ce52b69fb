import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import { navigate } from '../router';

export function NotFoundPage({ adminOnly = false }: { adminOnly?: boolean }) {
  return (
    <ContentLayout header={<Header variant="h1">{adminOnly ? 'Admins only' : 'Page not found'}</Header>}>
      <Box variant="p">
        {adminOnly
          ? 'This page is for admins of your organization. Ask an admin if you need something changed here.'
          : 'There is no page at this address.'}
      </Box>
      <Button onClick={() => navigate('/inbox')}>Go to the inbox</Button>
    </ContentLayout>
  );
}
