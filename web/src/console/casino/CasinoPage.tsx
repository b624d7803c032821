// `#/console/casino` (admin): the casino as the CLI runs it. The in-house tables (on/off and the
// image each tile shows), the categories the casino page's tabs show (add, rename, move, remove),
// the game providers (add, rotate the signing secret, which is shown once) and the world-casino
// catalogue per provider (add, on/off). One read of the whole screen; every action is checked,
// applied and audited by the server, and the screen reads again after it.
import { useQuery } from '@tanstack/react-query';
import { dataOr } from '../../api/client';
import { QueryState } from '../../components/QueryState';
import { CASINO_ADMIN_KEY, getCasinoAdmin } from './api';
import { CatalogueCard } from './CatalogueCard';
import { CategoriesCard } from './CategoriesCard';
import { ProvidersCard } from './ProvidersCard';
import { TablesCard } from './TablesCard';
import './casino.css';

export function CasinoPage() {
  const query = useQuery({ queryKey: CASINO_ADMIN_KEY, queryFn: async () => dataOr(await getCasinoAdmin(), null) });
  const casino = query.data;
  return (
    <div className="page-stack" data-testid="casino-admin-page">
      <QueryState isPending={query.isPending} error={query.error}>
        {casino && (
          <>
            <TablesCard casino={casino} />
            <CategoriesCard categories={casino.categories} />
            <ProvidersCard providers={casino.providers} />
            <CatalogueCard casino={casino} />
          </>
        )}
      </QueryState>
    </div>
  );
}
