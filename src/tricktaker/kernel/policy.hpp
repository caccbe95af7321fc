// The search's rollout policy for the Oh Hell family, as tricktaker.bots.search_ohhell
// writes it: bid the legal bid closest to the hand's estimated tricks; play to make the
// bid exactly (win while short, duck once made; lose every trick in a misere hand). In a
// hook game the same card play, wanting a trick when its result table says so.
#pragma once

#include "core.hpp"

namespace tk {

double estimate_tricks(const Config &cfg, const State &st, int seat);
int guess_bid(const Config &cfg, const State &st, int seat, uint64_t legal);
int greedy_card(const Config &cfg, const State &st, int seat, uint64_t legal, bool want);
// A hook game (the result tables): whether more tricks for the seat's team, as many as
// are left to take, can raise its result; and whether a partner already holds the trick
// in progress against every opponent still to play.
bool wants_trick(const Config &cfg, const State &st, int seat);
bool partner_holds(const Config &cfg, const State &st, int seat);
// The policy's move (a move code) for the seat to act, among the legal moves.
int policy_move(const Config &cfg, const State &st, uint64_t legal);
// Plays the hand to its end: the policy, except that a seat other than ``me`` moves
// uniformly at random with probability ``noise``.
void rollout(const Config &cfg, State &st, Rng &rng, double noise, int me);
// Plays the hand to its end with uniformly random legal moves.
void random_rollout(const Config &cfg, State &st, Rng &rng);

} // namespace tk
