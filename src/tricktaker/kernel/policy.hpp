// The search's rollout policy, as tricktaker.bots.rollout writes it (the same cards, ties
// included): in the Oh Hell family bid the legal bid closest to the hand's estimated
// tricks and play to make the bid exactly (win while short, duck once made, and once
// over it win where one trick more scores more; lose every trick in a misere hand); in a hook game whose card play the kernel plays (a result
// table: every trick counts) want every trick, unless a partner already holds it.
#pragma once

#include "core.hpp"

namespace tk {

// Wanting a trick but unsure to win it, a seat plays the strongest card that wins it so
// far in the Oh Hell family, and in a game where every trick counts (rollout.py's
// EVERY_TRICK_UNSURE) the strongest when this is true, else the lowest card.
constexpr bool EVERY_TRICK_STRONGEST = false;

double estimate_tricks(const Config &cfg, const State &st, int seat);
int guess_bid(const Config &cfg, const State &st, int seat, uint64_t legal);
// The greedy card of rollout.py's greedy_card (``strongest``: its unsure="strongest").
int greedy_card(const Config &cfg, const State &st, int seat, uint64_t legal, bool want,
                bool strongest);
// Whether a partner already holds the trick in progress against every opponent still to
// play (rollout.py's partner_holds).
bool partner_holds(const Config &cfg, const State &st, int seat);
// Whether ``seat`` plays to win the trick in the Oh Hell family (search_ohhell.py's
// wants_trick): while short of its bid; once over it, where a trick more scores more.
bool wants_trick(const Config &cfg, const State &st, int seat);
// The policy's move (a move code) for the seat to act, among the legal moves.
int policy_move(const Config &cfg, const State &st, uint64_t legal);
// Plays the hand to its end: the policy, except that a seat other than ``me`` moves
// uniformly at random with probability ``noise``.
void rollout(const Config &cfg, State &st, Rng &rng, double noise, int me);
// Plays on as ``rollout`` does, but stops as soon as the card play has at most
// ``tricks_left`` tricks left (where an exact endgame takes over: at a trick's start,
// unless ``st`` was already there), or at the hand's end; ``tricks_left`` < 0 never stops
// before the end.
void rollout_until(const Config &cfg, State &st, Rng &rng, double noise, int me, int tricks_left);
// Plays the hand to its end as ``rollout`` does, but each seat with its own chance
// ``noise[seat]`` of a uniformly random move (0: the policy's always).
void rollout_seats(const Config &cfg, State &st, Rng &rng, const double noise[MAXP]);
// Plays the hand to its end with uniformly random legal moves.
void random_rollout(const Config &cfg, State &st, Rng &rng);

} // namespace tk
