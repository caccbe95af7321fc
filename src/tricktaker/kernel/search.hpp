// The searches: ISMCTS (as tricktaker.bots.ismcts writes it) and PIMC-style flat
// rollouts, over states sampled by the void-aware determinizer.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core.hpp"
#include "determinize.hpp"

namespace tk {

// What one seat knows at a decision: the public state (its hidden hands empty), its own
// hand, and what the determinizer and the bid model need.
struct World {
    const Config *cfg;
    State public_state;
    int me;
    std::unique_ptr<Determinizer> det;
    std::unique_ptr<SplitSampler> split; // used instead of det where given
    uint64_t played[MAXP] = {}; // cards each seat has played this hand
    // Cards known to be with a hidden seat now (a hook game's facts): added to the cards
    // the determinizer samples for it, which are that many fewer.
    uint64_t fixed[MAXP] = {};
    bool has_fixed = false;
    // Seats whose simultaneous bid is made but hidden: each sample guesses it with the
    // rollout policy's bid on the sampled cards (as the Python determinizer does).
    std::vector<int> guess_seats;
    // The bid model (tricktaker.bots.search_ohhell._Sampler.weight): empty = off.
    std::vector<double> value;  // per card
    std::vector<int> weight_seats;
    double scale = 0.0;
    double floor = 0.0;
    // Inference from the plays seen (off while ``infer_noise`` is 0): the hand's card
    // plays so far, in order, as (seat, card). A deal is weighed by the chance of every
    // other seat's play under a soft rollout policy (with the chance ``1 - infer_noise``
    // the seat plays the policy's card or one equivalent to it in its hand, uniformly,
    // else any legal card, uniformly) times its number of legal cards, so that a play
    // that tells nothing counts 1; see ``play_weight``.
    std::vector<std::pair<int, int>> plays;
    double infer_noise = 0.0;
    // Above 0 (and with the plays inferred): the ISMCTS draws this many deals once, with
    // their weights, and each iteration takes one of them in proportion to its weight
    // (sampling importance resampling, ``DealPool``), its weight then 1; 0: each
    // iteration samples a fresh deal and weighs it.
    long infer_pool = 0;
    // Opponent kinds learned at the table (off while empty; see ``opponent_kinds``): per
    // seat the prior chance that it is a random player (every bid and card uniformly
    // among the legal ones) rather than a policy player (the rollout policy, softened by
    // ``kind_noise`` as ``infer_noise`` softens it). Each search weighs the two kinds by
    // the likelihood of the seat's bid and card plays this hand, and each iteration then
    // draws every other seat's kind from that posterior: a random seat moves at random in
    // the tree and the rollout and its bid does not weigh the deal.
    std::vector<double> random_prior;
    double kind_noise = 0.5;
    // How much the plays seen tell of a seat's kind: their likelihood ratio is raised to
    // this power in ``opponent_kinds`` (1: whole; 0: the kind is learned from the bid
    // alone, the plays still weigh the deals).
    double kind_plays = 1.0;

    void sample(Rng &rng, State &out) const;
    // Guesses the hidden simultaneous bids (``guess_seats``) of a deal: ``sample`` does.
    void guess_bids(State &st) const;
    // The deal's weight: the bid model's times the plays' (``play_weight``).
    double weight(const State &st) const;
    // The chance of the other seats' plays seen (``plays``) had the deal been ``st``
    // (each play's times its number of legal cards):
    // each seat's hand at the start of the card play is its cards in ``st`` and the cards
    // it played, and the plays are replayed from there. A play the replay finds illegal
    // (a deal against the facts) stops the product there. 1 when inference is off.
    double play_weight(const State &st) const;
    // Per seat, the chance of its plays seen as ``play_weight`` counts them (with the
    // policy softened by ``noise``) into ``out`` (1 for a seat with no play seen).
    void seat_play_weights(const State &st, double noise, double out[MAXP]) const;
    // How much likelier a policy player's bid (the bid model's, normalized over the legal
    // range of bids) is than a random player's for ``seat`` holding its cards in ``st``:
    // 1 when the seat has not bid or the bid model is off.
    double bid_ratio(const State &st, int seat) const { return bid_ratio(st, seat, floor); }
    // The same with the bid model's floor ``low`` in place of its own.
    double bid_ratio(const State &st, int seat, double low) const;
};

// What a search learns of the other seats' kinds (World::random_prior) from ``deals``
// deals sampled unweighted: per seat the posterior chance that it is a random player
// (its likelihood ratio, not random to random, averaged over the deals: the bid's
// ``bid_ratio`` with the floor ``KIND_BID_FLOOR`` times the plays' ``seat_play_weights``
// with ``kind_noise``, the policy kind's, averaged with the loose kind's) and the mean of
// its ``bid_ratio`` (the deal weights' own floor), which divides a policy seat's deal
// weight.
struct OpponentKinds {
    double random[MAXP] = {};
    double bid_mean[MAXP] = {};
};
OpponentKinds opponent_kinds(const World &world, Rng &rng, long deals);

// Deals sampled to learn the opponent kinds at the start of a search (at most its
// iterations).
constexpr long KIND_DEALS = 256;
// The bid model's floor in the kinds' likelihoods (``bid_ratio``): far lower than the
// deal weights' (a sensible player's bid is seldom three tricks off its hand's estimate,
// a random player's often is), so that the bids tell a random player from a player who
// bids by its cards, whose card play may differ from the policy's (another search).
constexpr double KIND_BID_FLOOR = 0.02;
// A player who is not random is, with even chances, the policy player above or a loose
// one: its plays the policy's softened by ``LOOSE_KIND_NOISE`` and its bids by the floor
// ``LOOSE_BID_FLOOR`` (another search, which bids by its cards but plays otherwise
// than the policy, reads as that kind rather than as a random player). The search plays
// both as it plays the policy kind.
constexpr double LOOSE_KIND_NOISE = 0.85;
constexpr double LOOSE_BID_FLOOR = 0.1;

// Deals drawn once from a world with their weights, then drawn from in proportion to
// the weights (each drawn deal then counts 1): the cost of weighing a deal is paid once a
// pool deal rather than once an iteration.
struct DealPool {
    std::vector<State> deals;
    std::vector<double> cumulative; // of the weights, in the order of ``deals``

    DealPool(const World &world, Rng &rng, long count);
    const State &draw(Rng &rng) const;
};

// Whether ``a`` and ``b`` are equivalent cards for a seat holding ``hand``, with the
// cards ``gone`` already played: the same effective suit, and every card of that suit
// ranked between them held or gone (so that either does what the other does).
bool equivalent_cards(const Config &cfg, uint64_t hand, uint64_t gone, int a, int b);

struct SearchParams {
    long iterations = 400;
    double time_budget = -1.0; // seconds; < 0: none
    double exploration = 0.3;
    double noise = 0.5;
    // How the other seats move in the tree: 0 by UCB over their moves, 1 by the rollout
    // policy, 2 as in the rollouts (at random with the chance ``noise``, else the policy).
    int model_opponents = 0;
    bool weighted = true;
    // How much the other seats' results count against a seat's own: each seat's reward
    // is its result less ``rivalry`` times the mean of the others' (not in a cooperative
    // game, where every seat has the same result).
    double rivalry = 0.0;
    // An iteration whose tree descent ends with at most this many tricks left takes every
    // seat's reward from the exact endgame (endgame.hpp: max-n over the sampled deal,
    // every hand known) instead of a rollout; 0: off, the rollout plays every hand out.
    int endgame_tricks = 0;
    // And every rollout stops once that many tricks are left, the exact endgame
    // finishing the deal (so the endgame counts in every decision, bids included).
    bool endgame_rollouts = false;
};

struct RootStat {
    int move;
    int visits;
    double mean;
};

struct SearchResult {
    int move = -1;
    long iterations = 0;
    std::vector<RootStat> root;
};

// Flat rollouts (as tricktaker.bots.pimc.choose_by_rollouts): every move is played out
// on ``first`` sampled deals, then the best ``keep`` on more deals until about
// ``rollouts`` rollouts are spent (the same deals for every move); the best weighted
// total wins. ``iterations`` of the result counts the rollouts.
SearchResult flat_rollouts(const World &world, const std::vector<int> &moves, long first,
                           long keep, long rollouts, double noise, double time_budget,
                           uint64_t seed);

// One deal given from outside instead of sampled (the hands of every seat) and its weight.
struct Deal {
    uint64_t hands[MAXP] = {};
    double weight = 1.0;
};

// What one move is worth over the deals played: the coach's model (tricktaker.coach.model).
struct MoveValue {
    long deals = 0;
    double weight = 0.0; // the sum of the deals' weights
    double sum = 0.0;    // of weight * the seat's hand score (the game's points)
    double sum_sq = 0.0; // of weight * the score squared
    double made = 0.0;   // of weight * (the seat took as many tricks as it bid)
    double weight_sq = 0.0; // the sum of the squared weights (the effective deals)
};

struct ChoiceValues {
    std::vector<MoveValue> moves; // in the order of the moves given
    // Whether ``made`` means anything: the hand is scored by bids (not by a hook game's
    // result tables) and the seat had a bid at the end of every deal.
    bool made_known = true;
};

// Every move played out on the same deals (common random numbers) with the rollout
// policy, no noise, by every seat: ``deals`` deals sampled from ``world`` (or the
// ``given`` ones, when not null), fewer when the time budget runs out, but at least
// ``least`` (and at most ``deals``); per move the weighted sums of the seat's hand score
// as the coach reads it (coach_points: in a cooperative game, whether the table was exact).
ChoiceValues choice_values(const World &world, const std::vector<int> &moves, long deals,
                           long least, double time_budget, uint64_t seed,
                           const std::vector<Deal> *given);

// Chooses among ``moves`` (the seat's legal moves, in the engine's order).
SearchResult ismcts(const World &world, const std::vector<int> &moves, const SearchParams &p,
                    uint64_t seed);

} // namespace tk
