// The kernel binding's readers (module.cpp): the field tables of the typed objects that
// the Python side hands over (tricktaker/kernel/spec.py), one checked reader for each,
// the capsules that hold a config or a world, and the small checks every entry point
// shares. Included by module.cpp only (its names have internal linkage).
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <climits>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"
#include "determinize.hpp"
#include "pyread.hpp"
#include "search.hpp"

namespace {

using namespace tk;
using namespace tk::py;

// ------------------------------------------------------------------ field tables

// The attributes of each typed object, in the order of its Python dataclass.
#define TK_CONFIG_FIELDS(X)                                                                    \
    X(players) X(hand_size) X(trump) X(suit_of) X(rank_of) X(key) X(suit_masks) X(trump_mask)  \
    X(deck_mask) X(turn_up_mask) X(follow_suit) X(must_trump) X(trump_lead_after_broken)       \
    X(misere) X(cooperative) X(hook) X(sum_equals_hand) X(simultaneous) X(min_bid)             \
    X(no_zero_seats) X(score) X(trick_points) X(reward_scale) X(result_score) X(result_reward)  \
    X(team) X(outcome_keys) X(outcome_score) X(outcome_reward) X(active) X(opening_card)      \
    X(bid_value)
#define TK_STATE_FIELDS(X)                                                                     \
    X(hands) X(bids) X(tricks) X(points) X(trick) X(leader) X(to_play) X(tricks_done)          \
    X(bid_count) X(bid_sum) X(eldest) X(phase) X(broken) X(first_bidder)
#define TK_FACTS_FIELDS(X)                                                                     \
    X(me) X(hidden) X(counts) X(voids) X(played) X(unknown) X(fixed) X(guess_bids) X(split)    \
    X(value) X(weight_seats) X(scale) X(floor) X(plays) X(infer_noise) X(infer_pool)           \
    X(random_prior) X(kind_noise) X(kind_plays)
#define TK_SPLIT_FIELDS(X) X(first) X(second) X(nodes) X(lists)

#define TK_ENUM(name) name,
#define TK_NAME(name) #name,
namespace config_field { enum { TK_CONFIG_FIELDS(TK_ENUM) count }; }
namespace state_field { enum { TK_STATE_FIELDS(TK_ENUM) count }; }
namespace facts_field { enum { TK_FACTS_FIELDS(TK_ENUM) count }; }
namespace split_field { enum { TK_SPLIT_FIELDS(TK_ENUM) count }; }
const char *const CONFIG_NAMES[] = {TK_CONFIG_FIELDS(TK_NAME)};
const char *const STATE_NAMES[] = {TK_STATE_FIELDS(TK_NAME)};
const char *const FACTS_NAMES[] = {TK_FACTS_FIELDS(TK_NAME)};
const char *const SPLIT_NAMES[] = {TK_SPLIT_FIELDS(TK_NAME)};
#undef TK_ENUM
#undef TK_NAME

FieldTable config_table{"config", CONFIG_NAMES, config_field::count, {}};
FieldTable state_table{"state", STATE_NAMES, state_field::count, {}};
FieldTable facts_table{"facts", FACTS_NAMES, facts_field::count, {}};
FieldTable split_table{"split", SPLIT_NAMES, split_field::count, {}};
FieldTable *const TABLES[] = {&config_table, &state_table, &facts_table, &split_table};

uint64_t seat_bits(int players) { return (uint64_t(1) << players) - 1; }

// ------------------------------------------------------------------ the typed objects

std::unique_ptr<Config> read_config(PyObject *object) {
    using namespace config_field;
    Reader r(object, config_table);
    auto cfg = std::make_unique<Config>();
    cfg->players = int(r.integer(players, INT_MIN, INT_MAX));
    cfg->hand_size = int(r.integer(hand_size, INT_MIN, INT_MAX));
    if (cfg->players < 2 || cfg->players > MAXP)
        throw Unsupported("the kernel plays 2 to " + std::to_string(MAXP) + " seats");
    if (cfg->hand_size < 1 || cfg->hand_size * cfg->players > NCARDS ||
        cfg->hand_size > MAX_HAND_SIZE)
        throw Unsupported("hand size out of the kernel's range");
    const int n = cfg->players;
    const uint64_t seats = seat_bits(n);
    cfg->trump = int(r.integer(trump, -1, FREE - 1));
    auto suits = r.integers(suit_of, 0, FREE, NCARDS);
    auto ranks = r.integers(rank_of, INT8_MIN, INT8_MAX, NCARDS);
    auto keys = r.integers(key, INT16_MIN, INT16_MAX, NCARDS * SUIT_CLASSES);
    for (int c = 0; c < NCARDS; ++c) {
        cfg->suit_of[c] = int8_t(suits[size_t(c)]);
        cfg->rank_of[c] = int8_t(ranks[size_t(c)]);
        for (int led = 0; led < SUIT_CLASSES; ++led)
            cfg->key[c][led] = int16_t(keys[size_t(c * SUIT_CLASSES + led)]);
    }
    auto masks = r.masks(suit_masks, DECK_BITS, SUIT_CLASSES);
    for (int i = 0; i < SUIT_CLASSES; ++i) cfg->suit_masks[i] = masks[size_t(i)];
    cfg->trump_mask = r.mask(trump_mask, DECK_BITS);
    cfg->deck_mask = r.mask(deck_mask, DECK_BITS);
    cfg->turn_up_mask = r.mask(turn_up_mask, DECK_BITS);
    cfg->follow_suit = r.flag(follow_suit);
    cfg->must_trump = r.flag(must_trump);
    cfg->trump_lead_after_broken = r.flag(trump_lead_after_broken);
    cfg->misere = r.flag(misere);
    cfg->cooperative = r.flag(cooperative);
    cfg->hook = r.flag(hook);
    cfg->sum_equals_hand = r.flag(sum_equals_hand);
    cfg->simultaneous = r.flag(simultaneous);
    cfg->min_bid = int(r.integer(min_bid, 0, MAX_HAND_SIZE));
    cfg->no_zero_seats = uint32_t(r.mask(no_zero_seats, seats));
    for (long long v : r.integers(score, -SCORE_LIMIT, SCORE_LIMIT)) cfg->score.push_back(int(v));
    for (long long v : r.integers(trick_points, -SCORE_LIMIT, SCORE_LIMIT))
        cfg->trick_points.push_back(int(v));
    cfg->reward_scale = r.real(reward_scale);
    for (long long v : r.integers(result_score, INT_MIN, INT_MAX)) cfg->result_score.push_back(int(v));
    cfg->result_reward = r.reals(result_reward);
    auto teams = r.masks(team, seats, n);
    for (int s = 0; s < n; ++s) cfg->team[s] = uint32_t(teams[size_t(s)]);
    cfg->outcome_keys = r.masks(outcome_keys, ~uint64_t(0));
    for (long long v : r.integers(outcome_score, INT_MIN, INT_MAX)) cfg->outcome_score.push_back(int(v));
    cfg->outcome_reward = r.reals(outcome_reward);
    cfg->active = uint32_t(r.mask(active, seats));
    cfg->opening_card = int(r.integer(opening_card, -1, NCARDS - 1));
    cfg->bid_value = r.reals(bid_value);
    if (!cfg->bid_value.empty() && cfg->bid_value.size() != size_t(NCARDS))
        fail(PyExc_ValueError, "config.bid_value: a value per card (" + std::to_string(NCARDS) +
                                   "), or none");
    cfg->finish();
    return cfg;
}

State read_state(const Config &cfg, PyObject *object) {
    using namespace state_field;
    Reader r(object, state_table);
    const int n = cfg.players, size = cfg.hand_size;
    State st{};
    auto held = r.masks(hands, DECK_BITS, n);
    auto bid = r.integers(bids, -1, size, n);
    auto taken = r.integers(tricks, 0, size, n);
    auto scored = r.integers(points, INT16_MIN, INT16_MAX, n);
    for (int s = 0; s < n; ++s) {
        st.hands[s] = held[size_t(s)];
        st.bids[s] = int8_t(bid[size_t(s)]);
        st.tricks[s] = int8_t(taken[size_t(s)]);
        st.points[s] = int16_t(scored[size_t(s)]);
    }
    Items cards = r.items(trick);
    if (cards.size() >= cfg.active_count)
        fail(PyExc_ValueError, "state.trick: a trick in progress has fewer cards than seats in it");
    for (Py_ssize_t i = 0; i < cards.size(); ++i) {
        auto pair = Items(cards[i], cards.name(i), 2);
        st.trick_seat[i] = uint8_t(to_integer(pair[0], pair.name(0), 0, n - 1));
        st.trick_card[i] = uint8_t(to_integer(pair[1], pair.name(1), 0, NCARDS - 1));
    }
    st.trick_len = int8_t(cards.size());
    st.leader = int8_t(r.integer(leader, 0, n - 1));
    st.to_play = int8_t(r.integer(to_play, 0, n - 1));
    st.tricks_done = int8_t(r.integer(tricks_done, 0, size));
    st.bid_count = int8_t(r.integer(bid_count, 0, n));
    st.bid_sum = int8_t(r.integer(bid_sum, 0, n * size));
    st.eldest = int8_t(r.integer(eldest, 0, n - 1));
    st.phase = int8_t(r.integer(phase, BIDDING, OVER));
    st.broken = r.flag(broken);
    st.first_bidder = int8_t(r.integer(first_bidder, -1, n - 1));
    check_state(cfg, st);
    return st;
}

// A SplitSampler (see determinize.hpp) from a SplitGraph: per node its options, each a
// (weight, next node or -1, list) triple; per list the card sets the first seat may take.
std::unique_ptr<SplitSampler> read_split(const Config &cfg, PyObject *object, uint64_t unknown) {
    using namespace split_field;
    Reader r(object, split_table);
    auto out = std::make_unique<SplitSampler>();
    out->first = int(r.integer(first, 0, cfg.players - 1));
    out->second = int(r.integer(second, 0, cfg.players - 1));
    if (out->first == out->second) fail(PyExc_ValueError, "split: two different seats");
    out->unknown = unknown;
    Items lists_read = r.items(lists);
    for (Py_ssize_t i = 0; i < lists_read.size(); ++i)
        out->lists.push_back(Items(lists_read[i], lists_read.name(i)).masks(DECK_BITS));
    Items nodes_read = r.items(nodes);
    for (Py_ssize_t i = 0; i < nodes_read.size(); ++i) {
        Items options(nodes_read[i], nodes_read.name(i));
        SplitSampler::Node node;
        for (Py_ssize_t j = 0; j < options.size(); ++j) {
            Items option(options[j], options.name(j), 3);
            double weight = to_real(option[0], option.name(0));
            if (weight < 0.0) fail(PyExc_ValueError, option.name(0).str() + ": a weight is 0 or more");
            int next = int(to_integer(option[1], option.name(1), -1, INT_MAX));
            int list = int(to_integer(option[2], option.name(2), 0, INT_MAX));
            node.total += weight;
            node.options.push_back({node.total, next, list});
        }
        out->nodes.push_back(std::move(node));
    }
    out->check();
    return out;
}

constexpr long long POOL_LIMIT = 1LL << 17; // deals a search's pool holds (states in memory)

// What one seat knows (a WorldFacts), read into ``w`` beside its public state.
void read_facts(const Config &cfg, PyObject *object, World &w) {
    using namespace facts_field;
    Reader r(object, facts_table);
    const int n = cfg.players;
    w.me = int(r.integer(me, 0, n - 1));
    auto hidden_seats = r.integers(hidden, 0, n - 1);
    uint64_t seen = 0;
    for (long long s : hidden_seats) {
        if ((seen >> s) & 1) fail(PyExc_ValueError, "facts.hidden: a seat twice");
        seen |= uint64_t(1) << s;
    }
    auto count = r.integers(counts, 0, cfg.hand_size, n);
    auto void_of = r.integers(voids, 0, (1 << SUIT_CLASSES) - 1, n);
    auto shown = r.masks(played, DECK_BITS, n);
    uint64_t unseen = r.mask(unknown, DECK_BITS);
    auto known = r.masks(fixed, DECK_BITS, n);
    int count_buf[MAXP] = {};
    uint32_t void_buf[MAXP] = {};
    for (int s = 0; s < n; ++s) {
        count_buf[s] = int(count[size_t(s)]);
        void_buf[s] = uint32_t(void_of[size_t(s)]);
        w.played[s] = shown[size_t(s)];
        w.fixed[s] = known[size_t(s)];
        if (w.fixed[s] & (unseen | w.public_state.hands[s]))
            fail(PyExc_ValueError, "facts.fixed: fixed cards are known, not sampled");
        w.has_fixed = w.has_fixed || w.fixed[s] != 0;
    }
    for (long long s : r.integers(guess_bids, 0, n - 1)) w.guess_seats.push_back(int(s));
    if (!r.none(split)) {
        if (!hidden_seats.empty()) fail(PyExc_ValueError, "facts.split: no other hidden seat");
        w.split = read_split(cfg, r.attr(split), unseen);
    } else {
        std::vector<int> seats(hidden_seats.begin(), hidden_seats.end());
        w.det = std::make_unique<Determinizer>(n, seats, count_buf, void_buf, unseen, cfg.suit_of);
    }
    if (!r.none(value)) w.value = r.reals(value, NCARDS);
    for (long long s : r.integers(weight_seats, 0, n - 1)) w.weight_seats.push_back(int(s));
    w.scale = r.real(scale);
    w.floor = r.real(floor);
    Items seen_plays = r.items(plays);
    uint64_t all_played = 0;
    for (int s = 0; s < n; ++s) all_played |= w.played[s];
    uint64_t replayed = 0;
    for (Py_ssize_t i = 0; i < seen_plays.size(); ++i) {
        auto pair = Items(seen_plays[i], seen_plays.name(i), 2);
        int seat = int(to_integer(pair[0], pair.name(0), 0, n - 1));
        int card = int(to_integer(pair[1], pair.name(1), 0, NCARDS - 1));
        uint64_t bit = uint64_t(1) << card;
        if (!((w.played[seat] >> card) & 1) || (replayed & bit))
            fail(PyExc_ValueError, seen_plays.name(i).str() + ": a card the seat played, once");
        replayed |= bit;
        w.plays.emplace_back(seat, card);
    }
    if (!w.plays.empty() && replayed != all_played)
        fail(PyExc_ValueError, "facts.plays: every card played this hand, in order");
    w.infer_noise = r.real(infer_noise);
    if (!(w.infer_noise >= 0.0 && w.infer_noise <= 1.0))
        fail(PyExc_ValueError, "facts.infer_noise: 0 (off) to 1");
    w.infer_pool = long(r.integer(infer_pool, 0, POOL_LIMIT));
    auto prior = r.reals(random_prior);
    if (!prior.empty() && prior.size() != size_t(n))
        fail(PyExc_ValueError, "facts.random_prior: one chance a seat, or none (off)");
    for (double chance : prior)
        if (!(chance >= 0.0 && chance <= 1.0))
            fail(PyExc_ValueError, "facts.random_prior: chances from 0 to 1");
    if (!prior.empty() && prior[size_t(w.me)] != 0.0)
        fail(PyExc_ValueError, "facts.random_prior: 0 for the searching seat");
    w.random_prior = prior;
    w.kind_noise = r.real(kind_noise);
    if (!(w.kind_noise > 0.0 && w.kind_noise <= 1.0))
        fail(PyExc_ValueError, "facts.kind_noise: above 0, at most 1");
    w.kind_plays = r.real(kind_plays);
    if (!(w.kind_plays >= 0.0 && w.kind_plays <= 1.0))
        fail(PyExc_ValueError, "facts.kind_plays: 0 (the bids alone) to 1");
}

// The move codes of a decision (cards while playing, BID_BASE + bid while bidding).
std::vector<int> read_moves(const Config &cfg, const State &st, PyObject *object) {
    bool bidding = st.phase == BIDDING;
    long long low = bidding ? BID_BASE : 0;
    long long high = bidding ? BID_BASE + cfg.hand_size : NCARDS - 1;
    auto listed = Items(object, "moves").integers(low, high);
    if (listed.empty()) fail(PyExc_ValueError, "no legal move to search");
    return std::vector<int>(listed.begin(), listed.end());
}

// ------------------------------------------------------------------ capsules

const char *CONFIG = "tricktaker.kernel.Config";
const char *WORLD = "tricktaker.kernel.World";

struct WorldBox {
    World world;
    PyObject *config; // keeps the Config capsule alive
};

void free_config(PyObject *capsule) {
    delete static_cast<Config *>(PyCapsule_GetPointer(capsule, CONFIG));
}

void free_world(PyObject *capsule) {
    auto *box = static_cast<WorldBox *>(PyCapsule_GetPointer(capsule, WORLD));
    Py_XDECREF(box->config);
    delete box;
}

Config *config_of(PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, CONFIG))
        fail(PyExc_TypeError, "expected a kernel config (make_config), not " + type_of(capsule));
    return static_cast<Config *>(PyCapsule_GetPointer(capsule, CONFIG));
}

WorldBox *world_of(PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, WORLD))
        fail(PyExc_TypeError, "expected a kernel world (make_world), not " + type_of(capsule));
    return static_cast<WorldBox *>(PyCapsule_GetPointer(capsule, WORLD));
}

PyObject *int_tuple(const int *values, int count) {
    Ref out(made(PyTuple_New(count)));
    for (int i = 0; i < count; ++i) PyTuple_SET_ITEM(out.get(), i, made(PyLong_FromLong(values[i])));
    return out.release();
}

void append(PyObject *list, PyObject *item) {
    Ref held(made(item));
    if (PyList_Append(list, held.get()) < 0) throw PyError{};
}

// A search's time budget in seconds (negative: none); a day at most, so that the deadline
// fits the clock's ticks.
void check_budget(double seconds) {
    if (std::isnan(seconds) || seconds > 86400.0)
        fail(PyExc_ValueError, "the time budget is at most 86400 seconds (negative: none)");
}

constexpr long SAMPLES_LIMIT = 1L << 24; // samples() lists them all: keep the list in memory

void check_count(long count) {
    if (count < 0) fail(PyExc_ValueError, "count must be 0 or more");
}

// The arguments (world, seed, count) of the calls that draw from a world; false when they
// do not parse (the Python error is set).
struct WorldDraws {
    const World *world = nullptr;
    unsigned long long seed = 0;
    long count = 0;
};

bool parse_world_draws(PyObject *args, WorldDraws &out) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "OKl", &capsule, &out.seed, &out.count)) return false;
    out.world = &world_of(capsule)->world;
    check_count(out.count);
    return true;
}

} // namespace
