// The CPython binding of the kernel: tricktaker.kernel._core (plain C API, no
// dependencies).
//
// The Python side hands over typed objects (tricktaker/kernel/spec.py: KernelConfig,
// KernelState, WorldFacts, SplitGraph), each read here by one function (read_config,
// read_state, read_facts, read_split) through the field tables below, which the module
// exports (CONFIG_FIELDS, ...) so that the Python classes are checked against them. Every
// value is checked at this boundary (types, seats, cards, lengths that must agree) before
// any C++ code indexes with it, and every entry point runs under `guarded`, which turns
// any C++ exception into a Python one: a bad input raises, it never aborts.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <climits>
#include <cmath>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "determinize.hpp"
#include "endgame.hpp"
#include "policy.hpp"
#include "pyread.hpp"
#include "search.hpp"

namespace {

using namespace tk;
using namespace tk::py;

PyObject *unsupported_error = nullptr; // tricktaker.kernel._core.Unsupported

// Runs ``body`` (which returns a new reference or nullptr with an exception set) and turns
// every C++ exception into a Python exception: bad input and contradictory state
// ValueError, a ruleset or decision the kernel does not play Unsupported (a ValueError),
// memory MemoryError, anything else RuntimeError. Nothing escapes into the interpreter.
template <class Body> PyObject *guarded(Body &&body) noexcept {
    try {
        return body();
    } catch (PyError &) {
    } catch (Unsupported &e) {
        PyErr_SetString(unsupported_error, e.what());
    } catch (std::bad_alloc &) {
        PyErr_NoMemory();
    } catch (std::logic_error &e) { // invalid_argument (BadInput), out_of_range, length_error
        PyErr_SetString(PyExc_ValueError, (std::string("kernel: ") + e.what()).c_str());
    } catch (std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, (std::string("kernel: ") + e.what()).c_str());
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "kernel: an unknown C++ exception");
    }
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "kernel: failed without a reason");
    return nullptr;
}

// Runs ``work`` without the GIL; an exception it throws is thrown again with the GIL held.
template <class Work> void without_gil(Work &&work) {
    std::exception_ptr error;
    Py_BEGIN_ALLOW_THREADS
    try {
        work();
    } catch (...) {
        error = std::current_exception();
    }
    Py_END_ALLOW_THREADS
    if (error) std::rethrow_exception(error);
}

// ------------------------------------------------------------------ field tables

// The attributes of each typed object, in the order of its Python dataclass.
#define TK_CONFIG_FIELDS(X)                                                                    \
    X(players) X(hand_size) X(trump) X(suit_of) X(rank_of) X(key) X(suit_masks) X(trump_mask)  \
    X(deck_mask) X(turn_up_mask) X(follow_suit) X(must_trump) X(trump_lead_after_broken)       \
    X(misere) X(cooperative) X(hook) X(sum_equals_hand) X(simultaneous) X(min_bid)             \
    X(no_zero_seats) X(score) X(trick_points) X(reward_scale) X(result_score) X(result_reward)  \
    X(team) X(outcome_keys) X(outcome_score) X(outcome_reward) X(active) X(opening_card)
#define TK_STATE_FIELDS(X)                                                                     \
    X(hands) X(bids) X(tricks) X(points) X(trick) X(leader) X(to_play) X(tricks_done)          \
    X(bid_count) X(bid_sum) X(eldest) X(phase) X(broken) X(first_bidder)
#define TK_FACTS_FIELDS(X)                                                                     \
    X(me) X(hidden) X(counts) X(voids) X(played) X(unknown) X(fixed) X(guess_bids) X(split)    \
    X(value) X(weight_seats) X(scale) X(floor)
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

// ------------------------------------------------------------------ functions

PyObject *make_config(PyObject *, PyObject *arg) {
    return guarded([&] {
        auto cfg = read_config(arg);
        PyObject *capsule = made(PyCapsule_New(cfg.get(), CONFIG, free_config));
        cfg.release(); // the capsule owns it now
        return capsule;
    });
}

PyObject *make_world(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state, *facts;
        if (!PyArg_ParseTuple(args, "OOO", &capsule, &state, &facts)) return nullptr;
        Config *cfg = config_of(capsule);
        auto box = std::make_unique<WorldBox>();
        box->config = nullptr;
        World &w = box->world;
        w.cfg = cfg;
        w.public_state = read_state(*cfg, state);
        read_facts(*cfg, facts, w);
        Py_INCREF(capsule);
        box->config = capsule;
        PyObject *out = PyCapsule_New(box.get(), WORLD, free_world);
        if (out == nullptr) {
            Py_DECREF(capsule);
            throw PyError{};
        }
        box.release(); // the capsule owns it now
        return out;
    });
}

PyObject *search(PyObject *, PyObject *args, PyObject *kwargs) {
    return guarded([&]() -> PyObject * {
        static const char *names[] = {"world",       "moves", "iterations",      "time_budget",
                                      "exploration", "noise", "model_opponents", "weighted",
                                      "seed",        "rivalry", "endgame_tricks",
                                      "endgame_rollouts", nullptr};
        PyObject *capsule, *moves_obj;
        SearchParams p;
        int model = 0, weighted = 1, endgame_rollouts = 0;
        unsigned long long seed = 0;
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOlddd|ipKdip", const_cast<char **>(names),
                                         &capsule, &moves_obj, &p.iterations, &p.time_budget,
                                         &p.exploration, &p.noise, &model, &weighted, &seed,
                                         &p.rivalry, &p.endgame_tricks, &endgame_rollouts))
            return nullptr;
        p.endgame_rollouts = endgame_rollouts != 0;
        if (p.endgame_tricks < 0 || p.endgame_tricks > MAX_ENDGAME_TRICKS)
            fail(PyExc_ValueError,
                 "endgame_tricks is 0 (off) to " + std::to_string(MAX_ENDGAME_TRICKS));
        WorldBox *box = world_of(capsule);
        p.model_opponents = model;
        p.weighted = weighted != 0;
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (p.iterations < 1) fail(PyExc_ValueError, "iterations must be at least 1");
        if (!std::isfinite(p.exploration) || !std::isfinite(p.noise) || !std::isfinite(p.rivalry))
            fail(PyExc_ValueError, "exploration, noise and rivalry must be finite");
        check_budget(p.time_budget);
        SearchResult result;
        without_gil([&] { result = ismcts(box->world, moves, p, seed); });
        Ref root(made(PyList_New(Py_ssize_t(result.root.size()))));
        for (size_t i = 0; i < result.root.size(); ++i) {
            const RootStat &r = result.root[i];
            PyList_SET_ITEM(root.get(), Py_ssize_t(i),
                            made(Py_BuildValue("(iid)", r.move, r.visits, r.mean)));
        }
        return Py_BuildValue("(ilN)", result.move, result.iterations, root.release());
    });
}

// pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)
PyObject *pimc(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *moves_obj;
        long first, keep, rollouts;
        double noise, budget;
        unsigned long long seed;
        if (!PyArg_ParseTuple(args, "OOlllddK", &capsule, &moves_obj, &first, &keep, &rollouts,
                              &noise, &budget, &seed))
            return nullptr;
        WorldBox *box = world_of(capsule);
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (first < 0 || keep < 0 || rollouts < 0)
            fail(PyExc_ValueError, "first, keep and rollouts must be 0 or more");
        if (!std::isfinite(noise)) fail(PyExc_ValueError, "noise must be finite");
        check_budget(budget);
        SearchResult result;
        without_gil([&] {
            result = flat_rollouts(box->world, moves, first, keep, rollouts, noise, budget, seed);
        });
        return Py_BuildValue("(il)", result.move, result.iterations);
    });
}

// The deals given to ``values`` (as ``samples`` lists them: each seat's hand, then the
// weight), checked against the world: the seat's own hand as it holds it, no card in two
// hands or already played, each seat as many cards as a deal sampled from the world, a
// weight of 0 or more.
std::vector<Deal> read_deals(const World &w, PyObject *object) {
    const Config &cfg = *w.cfg;
    const int n = cfg.players;
    Items listed(object, "deals");
    if (listed.size() > SAMPLES_LIMIT)
        fail(PyExc_ValueError, "deals: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
    State model;
    Rng rng(0);
    w.sample(rng, model);
    uint64_t gone = 0;
    for (int s = 0; s < n; ++s) gone |= w.played[s];
    for (int i = 0; i < w.public_state.trick_len; ++i)
        gone |= uint64_t(1) << w.public_state.trick_card[i];
    std::vector<Deal> out(size_t(listed.size()));
    for (Py_ssize_t i = 0; i < listed.size(); ++i) {
        Items deal(listed[i], listed.name(i), n + 1);
        Deal &into = out[size_t(i)];
        uint64_t placed = gone;
        for (int s = 0; s < n; ++s) {
            uint64_t hand = to_mask(deal[s], deal.name(s), DECK_BITS);
            std::string where = deal.name(s).str();
            if (hand & placed) fail(PyExc_ValueError, where + ": a card played or in two hands");
            int count = popcount(model.hands[s]);
            if (popcount(hand) != count)
                fail(PyExc_ValueError, where + ": the seat holds " + std::to_string(count) +
                                           " cards, not " + std::to_string(popcount(hand)));
            placed |= hand;
            into.hands[s] = hand;
        }
        if (into.hands[w.me] != w.public_state.hands[w.me])
            fail(PyExc_ValueError, deal.name(w.me).str() + ": the seat's own hand as it holds it");
        into.weight = to_real(deal[n], deal.name(n));
        if (into.weight < 0.0)
            fail(PyExc_ValueError, deal.name(n).str() + ": a weight is 0 or more");
    }
    return out;
}

// values(world, moves, deals, least, time_budget, seed, given=None) -> (made_known,
// [(deals, weight, sum, sum_sq, made, weight_sq)] per move): see choice_values (search.hpp).
PyObject *values(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *moves_obj, *given_obj = Py_None;
        long deals, least;
        double budget;
        unsigned long long seed;
        if (!PyArg_ParseTuple(args, "OOlldK|O", &capsule, &moves_obj, &deals, &least, &budget,
                              &seed, &given_obj))
            return nullptr;
        WorldBox *box = world_of(capsule);
        auto moves = read_moves(*box->world.cfg, box->world.public_state, moves_obj);
        if (deals < 0 || least < 0) fail(PyExc_ValueError, "deals and least must be 0 or more");
        check_budget(budget);
        std::vector<Deal> given;
        const bool has_given = given_obj != Py_None;
        if (has_given) given = read_deals(box->world, given_obj);
        ChoiceValues result;
        without_gil([&] {
            result = choice_values(box->world, moves, deals, least, budget, seed,
                                   has_given ? &given : nullptr);
        });
        Ref out(made(PyList_New(Py_ssize_t(result.moves.size()))));
        for (size_t j = 0; j < result.moves.size(); ++j) {
            const MoveValue &v = result.moves[j];
            PyList_SET_ITEM(out.get(), Py_ssize_t(j),
                            made(Py_BuildValue("(lddddd)", v.deals, v.weight, v.sum, v.sum_sq,
                                              v.made, v.weight_sq)));
        }
        return Py_BuildValue("(ON)", result.made_known ? Py_True : Py_False, out.release());
    });
}

// samples(world, seed, count): each sample's hands (a tuple of masks per seat) and weight.
PyObject *samples(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        WorldDraws call;
        if (!parse_world_draws(args, call)) return nullptr;
        const World &w = *call.world;
        if (call.count > SAMPLES_LIMIT)
            fail(PyExc_ValueError, "samples: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
        int n = w.cfg->players;
        Rng rng(call.seed);
        Ref out(made(PyList_New(0)));
        State st;
        for (long i = 0; i < call.count; ++i) {
            w.sample(rng, st);
            Ref hands(made(PyTuple_New(n + 1)));
            for (int s = 0; s < n; ++s)
                PyTuple_SET_ITEM(hands.get(), s, made(PyLong_FromUnsignedLongLong(st.hands[s])));
            PyTuple_SET_ITEM(hands.get(), n, made(PyFloat_FromDouble(w.weight(st))));
            append(out.get(), hands.release());
        }
        return out.release();
    });
}

// sample_loop(world, seed, count): ``count`` determinizations, for timing; a checksum.
PyObject *sample_loop(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        WorldDraws call;
        if (!parse_world_draws(args, call)) return nullptr;
        const World &w = *call.world;
        uint64_t check = 0;
        without_gil([&] {
            Rng rng(call.seed);
            State st;
            for (long i = 0; i < call.count; ++i) {
                w.sample(rng, st);
                check ^= st.hands[i % w.cfg->players];
            }
        });
        return PyLong_FromUnsignedLongLong(check);
    });
}

// playouts(config, state, seed, count, policy, noise, me): ``count`` playouts of a copy
// of ``state`` to the hand's end (random moves, or the rollout policy); the total score.
PyObject *playouts(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        unsigned long long seed;
        long count;
        int policy, me;
        double noise;
        if (!PyArg_ParseTuple(args, "OOKlpdi", &capsule, &state, &seed, &count, &policy, &noise,
                              &me))
            return nullptr;
        const Config &cfg = *config_of(capsule);
        State start = read_state(cfg, state);
        check_count(count);
        long long total = 0;
        without_gil([&] {
            Rng rng(seed);
            for (long i = 0; i < count; ++i) {
                State st = start;
                if (policy)
                    rollout(cfg, st, rng, noise, me);
                else
                    random_rollout(cfg, st, rng);
                total += hand_score(cfg, st, int(i % cfg.players));
            }
        });
        return PyLong_FromLongLong(total);
    });
}

// replay(config, state, moves): plays ``moves`` (move codes) from ``state``; returns
// (steps, trick winners, hand scores, rewards, phase), a step being (seat, legal mask,
// the policy's move) before each move. An illegal move raises ValueError.
PyObject *replay(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state, *moves_obj;
        if (!PyArg_ParseTuple(args, "OOO", &capsule, &state, &moves_obj)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        auto moves = Items(moves_obj, "moves").integers(0, BID_BASE + MAX_HAND_SIZE);
        Ref steps(made(PyList_New(0)));
        Ref winners(made(PyList_New(0)));
        for (long long move : moves) {
            if (st.phase == OVER) fail(PyExc_ValueError, "a move after the hand's end");
            int seat = seat_to_act(cfg, st);
            uint64_t legal = legal_moves(cfg, st);
            long long bit = move - (st.phase == BIDDING ? BID_BASE : 0);
            if (bit < 0 || bit > 63 || !((legal >> bit) & 1))
                fail(PyExc_ValueError, "illegal move " + std::to_string(move));
            append(steps.get(), Py_BuildValue("(iKi)", seat, (unsigned long long)legal,
                                              policy_move(cfg, st, legal)));
            int done = st.tricks_done;
            apply_move(cfg, st, int(move));
            if (st.tricks_done > done) append(winners.get(), PyLong_FromLong(st.leader));
        }
        int score[MAXP];
        for (int s = 0; s < cfg.players; ++s) score[s] = hand_score(cfg, st, s);
        Ref scores(int_tuple(score, cfg.players));
        double reward[MAXP];
        rewards(cfg, st, reward);
        Ref rw(made(PyTuple_New(cfg.players)));
        for (int s = 0; s < cfg.players; ++s)
            PyTuple_SET_ITEM(rw.get(), s, made(PyFloat_FromDouble(reward[s])));
        return Py_BuildValue("(NNNNi)", steps.release(), winners.release(), scores.release(),
                             rw.release(), int(st.phase));
    });
}

// endgame(config, state, rivalry=0.0) -> (rewards, move, nodes): the exact endgame of a
// complete deal in its card play (endgame.hpp): each seat's reward under max-n, the card
// the seat to play plays, the positions visited. Refused (ValueError) with more than
// MAX_ENDGAME_TRICKS tricks left or hands that do not hold the cards left to play;
// Unsupported past ENDGAME_NODE_LIMIT positions.
PyObject *endgame(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        double rivalry = 0.0;
        if (!PyArg_ParseTuple(args, "OO|d", &capsule, &state, &rivalry)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        if (!std::isfinite(rivalry)) fail(PyExc_ValueError, "rivalry must be finite");
        if (!endgame_fits(cfg, st, MAX_ENDGAME_TRICKS))
            fail(PyExc_ValueError, "endgame: card play with at most " +
                                       std::to_string(MAX_ENDGAME_TRICKS) +
                                       " tricks left, each seat holding the cards it has to play");
        Endgame solver(cfg, rivalry, ENDGAME_NODE_LIMIT);
        double reward[MAXP];
        int move = -1;
        bool solved = false;
        without_gil([&] { solved = solver.solve(st, reward, &move); });
        if (!solved)
            throw Unsupported("endgame: more than " + std::to_string(ENDGAME_NODE_LIMIT) +
                              " positions");
        Ref rw(made(PyTuple_New(cfg.players)));
        for (int s = 0; s < cfg.players; ++s)
            PyTuple_SET_ITEM(rw.get(), s, made(PyFloat_FromDouble(reward[s])));
        return Py_BuildValue("(Nil)", rw.release(), move, solver.nodes());
    });
}

// estimate(config, state, seat): the rollout policy's estimate of the seat's tricks.
PyObject *estimate(PyObject *, PyObject *args) {
    return guarded([&]() -> PyObject * {
        PyObject *capsule, *state;
        int seat;
        if (!PyArg_ParseTuple(args, "OOi", &capsule, &state, &seat)) return nullptr;
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        if (seat < 0 || seat >= cfg.players) fail(PyExc_ValueError, "seat out of range");
        return PyFloat_FromDouble(estimate_tricks(cfg, st, seat));
    });
}

// play_out(pairs): each (config, state) pair's hand played to its end with the rollout
// policy (no noise, as ``rollout`` plays it); per pair the winners of the tricks played
// from its state, in order, and each seat's bid at the end (-1: none). The coach plays so
// the bids and card play of hands whose earlier decisions were played in Python
// (tricktaker.kernel.values.play_out_hands).
PyObject *play_out(PyObject *, PyObject *arg) {
    return guarded([&]() -> PyObject * {
        Items pairs(arg, "pairs");
        if (pairs.size() > SAMPLES_LIMIT)
            fail(PyExc_ValueError, "pairs: at most " + std::to_string(SAMPLES_LIMIT) + " a call");
        std::vector<const Config *> configs(size_t(pairs.size()));
        std::vector<State> states(size_t(pairs.size()));
        for (Py_ssize_t i = 0; i < pairs.size(); ++i) {
            Items pair(pairs[i], pairs.name(i), 2);
            configs[size_t(i)] = config_of(pair[0]);
            states[size_t(i)] = read_state(*configs[size_t(i)], pair[1]);
        }
        std::vector<int8_t> winners(size_t(pairs.size()) * MAX_HAND_SIZE, -1);
        without_gil([&] {
            for (size_t i = 0; i < states.size(); ++i) {
                const Config &cfg = *configs[i];
                State &st = states[i];
                st.first_bidder = -1; // as rollout() takes simultaneous bids: in seat order
                int8_t *into = &winners[i * MAX_HAND_SIZE];
                int count = 0;
                while (st.phase != OVER) {
                    uint64_t legal = legal_moves(cfg, st);
                    int move = popcount(legal) == 1
                                   ? lowest(legal) + (st.phase == BIDDING ? BID_BASE : 0)
                                   : policy_move(cfg, st, legal);
                    int done = st.tricks_done;
                    apply_move(cfg, st, move);
                    if (st.tricks_done > done && count < MAX_HAND_SIZE) into[count++] = st.leader;
                }
            }
        });
        Ref out(made(PyList_New(Py_ssize_t(states.size()))));
        for (size_t i = 0; i < states.size(); ++i) {
            const int8_t *from = &winners[i * MAX_HAND_SIZE];
            int count = 0;
            while (count < MAX_HAND_SIZE && from[count] >= 0) ++count;
            Ref row(made(PyTuple_New(count)));
            for (int k = 0; k < count; ++k)
                PyTuple_SET_ITEM(row.get(), k, made(PyLong_FromLong(from[k])));
            int bids[MAXP];
            for (int s = 0; s < configs[i]->players; ++s) bids[s] = states[i].bids[s];
            Ref bid_row(int_tuple(bids, configs[i]->players));
            PyList_SET_ITEM(out.get(), Py_ssize_t(i),
                            made(Py_BuildValue("(NN)", row.release(), bid_row.release())));
        }
        return out.release();
    });
}

PyMethodDef methods[] = {
    {"make_config", make_config, METH_O,
     "make_config(config: KernelConfig) -> a kernel config (a capsule): a hand's rules."},
    {"make_world", make_world, METH_VARARGS,
     "make_world(config, state: KernelState, facts: WorldFacts): what one seat knows, ready"
     " to sample and search."},
    {"search", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(search)),
     METH_VARARGS | METH_KEYWORDS,
     "search(world, moves, iterations, time_budget, exploration, noise, model_opponents,"
     " weighted, seed, rivalry, endgame_tricks=0, endgame_rollouts=False) -> (move,"
     " iterations, [(move, visits, mean)])"},
    {"pimc", pimc, METH_VARARGS,
     "pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)"},
    {"values", values, METH_VARARGS,
     "values(world, moves, deals, least, time_budget, seed, given=None) -> (made_known,"
     " [(deals, weight, sum, sum_sq, made, weight_sq)]): every move played out on the same"
     " deals"},
    {"samples", samples, METH_VARARGS, "samples(world, seed, count) -> [(hands..., weight)]"},
    {"sample_loop", sample_loop, METH_VARARGS, "sample_loop(world, seed, count) -> checksum"},
    {"playouts", playouts, METH_VARARGS,
     "playouts(config, state, seed, count, policy, noise, me) -> total score"},
    {"replay", replay, METH_VARARGS,
     "replay(config, state, moves) -> (steps, winners, scores, rewards, phase)"},
    {"estimate", estimate, METH_VARARGS, "estimate(config, state, seat) -> tricks"},
    {"endgame", endgame, METH_VARARGS,
     "endgame(config, state, rivalry=0.0) -> (rewards, move, nodes): the last tricks of a"
     " complete deal solved exactly (max-n)"},
    {"play_out", play_out, METH_O,
     "play_out([(config, state)]) -> [((trick winners...), (bids...))]: each hand played to"
     " its end by the rollout policy"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                      "The compiled search kernel of tricktaker (see tricktaker.kernel).", -1,
                      methods, nullptr, nullptr, nullptr, nullptr};

// The module's constants and field tables (see tricktaker/kernel/spec.py).
bool add_constants(PyObject *m) {
    const std::pair<const char *, long> constants[] = {
        {"BID_BASE", BID_BASE},
        {"MAX_PLAYERS", MAXP},
        {"CARDS", NCARDS},
        {"FREE_SUIT", FREE},
        {"SUIT_CLASSES", SUIT_CLASSES},
        {"MAX_HAND_SIZE", MAX_HAND_SIZE},
        {"OUTCOME_BITS", OUTCOME_BITS},
        {"MAX_OUTCOME_TRICKS", MAX_OUTCOME_TRICKS},
        {"MAX_ENDGAME_TRICKS", MAX_ENDGAME_TRICKS},
        {"SCORE_LIMIT", SCORE_LIMIT},
        {"PHASE_BIDDING", BIDDING},
        {"PHASE_PLAYING", PLAYING},
        {"PHASE_OVER", OVER},
    };
    for (const auto &[name, value] : constants)
        if (PyModule_AddIntConstant(m, name, value) < 0) return false;
    const char *const exported[] = {"CONFIG_FIELDS", "STATE_FIELDS", "FACTS_FIELDS", "SPLIT_FIELDS"};
    for (size_t t = 0; t < 4; ++t) {
        FieldTable &table = *TABLES[t];
        PyObject *names = PyTuple_New(table.count);
        if (names == nullptr) return false;
        table.interned.clear();
        for (int i = 0; i < table.count; ++i) {
            PyObject *name = PyUnicode_InternFromString(table.names[i]);
            if (name == nullptr) {
                Py_DECREF(names);
                return false;
            }
            Py_INCREF(name); // one reference kept for the reader, for the module's lifetime
            table.interned.push_back(name);
            PyTuple_SET_ITEM(names, i, name);
        }
        if (PyModule_AddObject(m, exported[t], names) < 0) {
            Py_DECREF(names);
            return false;
        }
    }
    return true;
}

} // namespace

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == nullptr) return nullptr;
    unsupported_error =
        PyErr_NewException("tricktaker.kernel._core.Unsupported", PyExc_ValueError, nullptr);
    if (unsupported_error == nullptr || PyModule_AddObject(m, "Unsupported", unsupported_error) < 0) {
        Py_XDECREF(unsupported_error);
        Py_DECREF(m);
        return nullptr;
    }
    Py_INCREF(unsupported_error);
    if (!add_constants(m)) {
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
