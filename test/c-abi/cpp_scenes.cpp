// The determinism scenes through maul3d.hpp: an RAII world and a small thread pool with
// a "launch N jobs / wait" interface, adapted to the task hooks by m3::JobSystemHooks.
// Built with -std=c++17 -fno-exceptions -fno-rtti -Wall -Werror; prints the per-step
// hashes of test/hashes.txt. With --odd-fp every call (and every pool thread) runs
// rounding upward with flush-to-zero, as scenes.c.
#include "maul3d.hpp"
#include "scenes.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// A fixed pool: Launch queues `count` jobs of one function; each thread is one worker
// index, so no two jobs share an index at once. Handles are batch numbers.
class ThreadPool {
public:
    ThreadPool(uint32_t workers, bool odd) : m_odd(odd)
    {
        for (uint32_t i = 0; i < workers; ++i) m_threads.emplace_back([this, i] { Run(i); });
    }
    ~ThreadPool()
    {
        {
            std::lock_guard<std::mutex> g(m_lock);
            m_stop = true;
        }
        m_work.notify_all();
        for (std::thread& t : m_threads) t.join();
    }
    uint32_t WorkerCount() const { return static_cast<uint32_t>(m_threads.size()); }

    template <typename Fn>
    uint64_t Launch(uint32_t count, Fn fn)
    {
        std::lock_guard<std::mutex> g(m_lock);
        Batch b;
        b.id = ++m_lastId;
        b.count = count;
        b.next = 0;
        b.done = 0;
        b.run = [](void* f, uint32_t job, uint32_t worker) { (*static_cast<Fn*>(f))(job, worker); };
        static_assert(sizeof(Fn) <= sizeof(b.fn), "job function too large");
        std::memcpy(b.fn, &fn, sizeof(Fn));
        m_batches.push_back(b);
        m_work.notify_all();
        return b.id;
    }

    void Wait(uint64_t id)
    {
        std::unique_lock<std::mutex> g(m_lock);
        m_finished.wait(g, [&] {
            for (const Batch& b : m_batches)
                if (b.id == id) return b.done == b.count;
            return true;
        });
        for (size_t i = 0; i < m_batches.size(); ++i) {
            if (m_batches[i].id == id) {
                m_batches.erase(m_batches.begin() + static_cast<std::ptrdiff_t>(i));
                break;
            }
        }
    }

    uint64_t JobsRun() const { return m_jobsRun.load(); }

private:
    struct Batch {
        uint64_t id;
        uint32_t count, next, done;
        void (*run)(void*, uint32_t, uint32_t);
        alignas(std::max_align_t) unsigned char fn[32];
    };

    void Run(uint32_t worker)
    {
        if (m_odd) {
            fesetround(FE_UPWARD);
            m3t_set_ftz(1);
        }
        std::unique_lock<std::mutex> g(m_lock);
        for (;;) {
            Batch* b = nullptr;
            m_work.wait(g, [&] {
                if (m_stop) return true;
                for (Batch& x : m_batches)
                    if (x.next < x.count) {
                        b = &x;
                        return true;
                    }
                return false;
            });
            if (m_stop) return;
            const uint64_t id = b->id;
            const uint32_t job = b->next++;
            void (*run)(void*, uint32_t, uint32_t) = b->run;
            unsigned char fn[sizeof b->fn];
            std::memcpy(fn, b->fn, sizeof fn);
            g.unlock();
            run(fn, job, worker);
            if (m_odd && (fegetround() != FE_UPWARD || m3t_ftz_bits() != M3T_FTZ_ON)) {
                std::fprintf(stderr, "FAIL: a task changed its worker's floating-point mode\n");
                std::exit(1);
            }
            m_jobsRun.fetch_add(1);
            g.lock();
            for (Batch& x : m_batches)
                if (x.id == id && ++x.done == x.count) m_finished.notify_all();
        }
    }

    bool m_odd;
    std::vector<std::thread> m_threads;
    std::mutex m_lock;
    std::condition_variable m_work, m_finished;
    std::vector<Batch> m_batches;
    uint64_t m_lastId = 0;
    bool m_stop = false;
    std::atomic<uint64_t> m_jobsRun{0};
};

// A body's contact data through the wrappers: within the capacity, each contact names one
// of the body's shapes and has 1 to 4 points, and the body's shapes' contacts add up to
// the body's.
bool walk_contacts(m3BodyId b, const std::vector<m3ShapeId>& shapes, int32_t* seen)
{
    const int32_t capacity = m3::BodyContactCapacity(b);
    std::vector<m3ContactData> data(static_cast<size_t>(capacity));
    int32_t n = -1;
    CALL(m3::BodyContactData(b, data.data(), capacity, &n));
    if (n < 0 || n > capacity) {
        std::fprintf(stderr, "FAIL: body %u: %d contacts, capacity %d\n", b.index, n, capacity);
        return false;
    }
    int32_t byShape = 0;
    for (const m3ShapeId& s : shapes) {
        int32_t k = 0;
        CALL(m3::ShapeContactData(s, nullptr, 0, &k));
        if (k > m3::ShapeContactCapacity(s)) return false;
        byShape += k;
    }
    for (int32_t i = 0; i < n; ++i) {
        const m3ContactData& c = data[static_cast<size_t>(i)];
        bool mine = false;
        for (const m3ShapeId& s : shapes) {
            mine = mine || c.shapeA.index == s.index || c.shapeB.index == s.index;
        }
        if (!mine || c.manifold.pointCount < 1 || c.manifold.pointCount > 4) {
            std::fprintf(stderr, "FAIL: contact %d of body %u\n", i, b.index);
            return false;
        }
    }
    if (byShape != n) {
        std::fprintf(stderr, "FAIL: body %u: %d contacts, its shapes %d\n", b.index, n, byShape);
        return false;
    }
    *seen += n;
    return true;
}

// Walks what a world holds through the list wrappers: every body's shapes name that body
// back, a hull shape its hull, a mesh shape its mesh; every body's contact data holds
// together; the hash read both ways agrees, and walking changes it not.
bool walk_world(const m3::World& w)
{
    uint64_t hash = 0;
    CALL(w.GetHash(&hash));
    if (hash != w.Hash()) {
        std::fprintf(stderr, "FAIL: GetHash and Hash disagree\n");
        return false;
    }
    std::vector<m3BodyId> bodies(static_cast<size_t>(w.BodyCount()));
    int32_t n = 0, contacts = 0;
    CALL(w.BodyIds(bodies.data(), static_cast<int32_t>(bodies.size()), &n));
    if (n != static_cast<int32_t>(bodies.size()) || n == 0) {
        std::fprintf(stderr, "FAIL: BodyCount %zu, BodyIds %d\n", bodies.size(), n);
        return false;
    }
    for (const m3BodyId& b : bodies) {
        std::vector<m3ShapeId> shapes(static_cast<size_t>(m3::BodyShapeCount(b)));
        CALL(m3::BodyShapes(b, shapes.data(), static_cast<int32_t>(shapes.size()), &n));
        for (const m3ShapeId& s : shapes) {
            m3BodyId owner;
            m3ShapeType type = -1;
            CALL(m3Shape_GetBody(s, &owner));
            CALL(m3Shape_GetType(s, &type));
            m3HullId hull;
            m3MeshId mesh;
            const bool hullOk = m3::ShapeHull(s, &hull) == m3_success;
            const bool meshOk = m3::ShapeMesh(s, &mesh) == m3_success;
            if (owner.index != b.index || hullOk != (type == m3_hullShape) ||
                meshOk != (type == m3_meshShape)) {
                std::fprintf(stderr, "FAIL: shape %u of body %u (type %d)\n", s.index, b.index, type);
                return false;
            }
        }
        if (!walk_contacts(b, shapes, &contacts)) return false;
    }
    // Every scene ends with bodies resting on something.
    if (contacts == 0) {
        std::fprintf(stderr, "FAIL: no body reports a touching contact\n");
        return false;
    }
    if (w.Hash() != hash) {
        std::fprintf(stderr, "FAIL: walking the world changed its hash\n");
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--odd-fp") == 0) m3t_odd = 1;
    }
    ThreadPool pool(4, m3t_odd != 0);
    m3::JobSystemHooks<ThreadPool> hooks(pool);
    m3WorldDef base = m3DefaultWorldDef();
    hooks.Install(&base);
    for (int scene = 0; scene < SCENE_COUNT; ++scene) {
        const m3WorldDef def = scene_def(scene, &base);
        m3t_odd_enter();
        m3::World w(def);
        m3t_odd_leave("m3::World");
        if (!w) {
            std::fprintf(stderr, "FAIL: create: %s\n", m3::LastError());
            return 1;
        }
        world = w.Id();
        populate(scene);
        for (int s = 0; s < STEPS; ++s) {
            before_step(scene, s);
            CALL(w.Step(1.0f / 60.0f, 4));
            uint64_t h;
            VALUE(h, w.Hash());
            std::printf("%s %d %016llx\n", SCENES[scene], s + 1, static_cast<unsigned long long>(h));
        }
        if (!walk_world(w)) return 1;
    }
    if (pool.JobsRun() == 0) {
        std::fprintf(stderr, "FAIL: the job system never ran a job\n");
        return 1;
    }
    std::fprintf(stderr, "cpp_scenes: %u workers ran %llu jobs\n", pool.WorkerCount(),
                 static_cast<unsigned long long>(pool.JobsRun()));
    return 0;
}
