import { useParams } from 'wouter';
import { BoardPage } from '../../features/queue-public/components/board-page';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/board/{token}`: the hall's screen of a board link (read-only). */
export default function BoardRoute() {
  const { token = '' } = useParams<{ token: string }>();
  useDocumentTitle('queue.board.title');
  return <BoardPage key={token} token={token} />;
}
