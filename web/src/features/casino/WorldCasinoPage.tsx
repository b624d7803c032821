import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getStaticGames } from './api';
import { GameTileArt } from './GameTileArt';
import { CATEGORY_KEY, categoriesOf, type Category, isInstant, providerLine, providersOf, shownGames } from './catalogue';
import { useLaunchGame } from './useLaunchGame';

/**
 * /world-casino (INT Casino) and /casino/mac88: the providers' games by category, provider and
 * name; a tile launches the game. Only categories with a game get a tab, every tile names its
 * provider, and the built-in provider's computer-dealt games say so on their tile.
 */
export function WorldCasinoPage({ lobby = 'world' }: { lobby?: 'world' | 'mac88' }) {
  const { t } = useTranslation('casino');
  const games = useQuery({ queryKey: ['staticGames'], queryFn: getStaticGames });
  const [category, setCategory] = useState<Category>('All');
  const [provider, setProvider] = useState('All');
  const [query, setQuery] = useState('');
  const { launch, launching } = useLaunchGame();
  const providers = providersOf(games.data ?? []);
  const categories = categoriesOf(games.data ?? [], provider);
  // A provider without games in the chosen category leaves no tab for it: show them all.
  const activeCategory = categories.includes(category) ? category : 'All';
  const shown = shownGames(games.data ?? [], { category: activeCategory, provider, query });

  return (
    <PageCard title={lobby === 'mac88' ? t('world.mac88Title') : t('world.title')} testId="world-casino-page">
      <div className="chip-tabs" role="tablist" aria-label={t('world.categoriesLabel')}>
        {categories.map((c) => (
          <button key={c} type="button" role="tab" aria-selected={activeCategory === c} className={activeCategory === c ? 'active' : undefined} onClick={() => setCategory(c)}>
            {t(`world.category.${CATEGORY_KEY[c]}`)}
          </button>
        ))}
      </div>
      <label className="filter-row">
        {t('world.search')}
        <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('world.searchPlaceholder')} data-testid="world-casino-search" />
      </label>
      {providers.length > 2 && (
        <label className="filter-row">
          {t('world.provider')}
          <select value={provider} onChange={(e) => setProvider(e.target.value)}>
            {providers.map((p) => (
              <option key={p} value={p}>
                {p === 'All' ? t('world.allProviders') : p}
              </option>
            ))}
          </select>
        </label>
      )}
      <QueryState isPending={games.isPending} error={games.error} isEmpty={shown.length === 0} empty={query ? t('world.noMatch', { query: query.trim() }) : t('world.empty')}>
        <ul className="game-grid" data-testid="world-casino-games">
          {shown.map((g) => (
            <li key={g.game_id}>
              <button type="button" className="game-tile" disabled={launching !== null} onClick={() => void launch(g.game_id)}>
                <GameTileArt key={g.url_thumb} src={g.url_thumb} name={g.game_name} />
                <span className="game-tile-name">{launching === g.game_id ? t('world.opening') : g.game_name}</span>
                <span className="game-tile-provider" data-testid="game-tile-provider">
                  {providerLine(g)}
                </span>
                {isInstant(g) && (
                  <span className="game-tile-badge" data-testid="instant-badge" title={t('world.instantTitle')}>
                    {t('world.instantBadge')}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </QueryState>
    </PageCard>
  );
}

export function Mac88LobbyPage() {
  return <WorldCasinoPage lobby="mac88" />;
}
