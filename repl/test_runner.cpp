// repl/test_runner.cpp: runs scenario files on fresh worlds, gathers each
// case's outcome from every rank, and reports.
#include "repl/test_runner.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "launcher/protocol/clock.hpp"
#include "repl/view/collate.hpp"
#include "repl/view/trace_view.hpp"

namespace lumpi::repl {
namespace {

namespace fs = std::filesystem;

using launcher::now_s;

struct CaseResult {
  std::string name;
  std::string status;  // pass, fail, skip
  std::string detail;  // collated lines for failures
  double seconds = 0;
};

struct FileRun {
  std::optional<std::vector<int>> declared;  // t.np
  std::vector<CaseResult> cases;
  int resume_at = -1;  // after a hang or a death: cases to skip on a fresh world
};

std::vector<std::string> expand(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    if (fs::is_directory(p)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".lua") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  return files;
}

std::vector<int> parse_sizes(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (int n = std::atoi(item.c_str()); n > 0) out.push_back(n);
  return out;
}

// Per-case bookkeeping while a file runs: rank outcomes by case order.
struct Tracker {
  int size;
  double timeout;
  std::vector<std::string> order;                            // case keys, first seen
  std::map<std::string, std::string> names;                  // key -> the case's name
  std::map<std::string, std::map<int, std::pair<std::string, std::string>>> outcomes;
  std::map<std::string, double> started;
  std::map<int, std::pair<std::string, double>> current;     // rank -> case, since
  std::optional<std::vector<int>> declared;
  bool timed_out = false;        // the timeout struck, or a deadlock was found: the run broke off
  bool deadlocked = false;       // ... and it was a deadlock
  std::string timed_out_case;
  std::vector<std::string> timeout_status;  // every rank's :status when it struck (the deadlock's report)
  double quiet_since = now_s();  // the last case event (code outside cases runs after it)

  // Fields of lumpi.host.event (lua/lumpi/test.lua): np SIZES; begin KEY NAME; case KEY NAME STATUS DETAIL.
  void on_event(int rank, const std::vector<std::string>& f) {
    quiet_since = now_s();
    if (f.size() == 2 && f[0] == "np") declared = parse_sizes(f[1]);
    // a case's key is its number in the file: two cases may share a name
    if (f.size() == 3 && f[0] == "begin") {
      if (!started.count(f[1])) {
        order.push_back(f[1]);
        names[f[1]] = f[2];
        started[f[1]] = now_s();
      }
      current[rank] = {f[1], now_s()};
    }
    if (f.size() == 5 && f[0] == "case") {
      outcomes[f[1]][rank] = {f[3], f[4]};
      current.erase(rank);
    }
  }

  // Interrupts when a case runs past the timeout. The case to blame is the
  // earliest one still running: ranks in later cases usually wait for it.
  // Code outside every case gets the same limit (timed_out_case stays "").
  std::string deadline() {
    if (timeout <= 0 || timed_out) return "";
    if (current.empty() && now_s() - quiet_since > timeout) {
      timed_out = true;
      return "code outside the cases exceeded the " + seconds_text(timeout) + " s timeout: interrupting";
    }
    int blamed = -1;
    for (const auto& [rank, c] : current) {
      if (now_s() - started[c.first] <= timeout) continue;
      int idx = int(std::find(order.begin(), order.end(), c.first) - order.begin());
      if (blamed < 0 || idx < blamed) blamed = idx;
    }
    if (blamed < 0) return "";
    timed_out = true;
    timed_out_case = order[size_t(blamed)];
    return "case '" + names[timed_out_case] + "' exceeded the " + seconds_text(timeout) +
           " s timeout: interrupting";
  }

  // A deadlock was found (the Session interrupts for it): like the timeout,
  // it breaks the run off, blaming the earliest case still running.
  void on_deadlock(const std::vector<std::string>& report) {
    if (timed_out) return;
    timed_out = deadlocked = true;
    timeout_status = report;
    int blamed = -1;
    for (const auto& [rank, c] : current) {
      int idx = int(std::find(order.begin(), order.end(), c.first) - order.begin());
      if (blamed < 0 || idx < blamed) blamed = idx;
    }
    timed_out_case = blamed < 0 ? "" : order[size_t(blamed)];
  }
};

// A failure's lines when the timeout struck (what every rank was doing then) or a deadlock was found (its report).
std::string timeout_detail(const Tracker& tr) {
  std::string d = tr.deadlocked ? "        deadlock found:\n"
                                : "        timed out after " + seconds_text(tr.timeout) + " s; :status then:\n";
  for (const auto& l : tr.timeout_status) d += "          " + l + "\n";
  return d;
}

CaseResult judge(const std::string& key, const Tracker& tr, const Outcome& o) {
  CaseResult c{tr.names.at(key), "pass", "", 0};
  auto it = tr.outcomes.find(key);
  std::map<int, std::string> failures;
  bool skipped = false;
  std::string skip_reason;
  for (int r = 0; r < tr.size; ++r) {
    const std::pair<std::string, std::string>* got = nullptr;
    if (it != tr.outcomes.end() && it->second.count(r)) got = &it->second.at(r);
    if (!got) {
      auto ro = o.ranks.find(r);
      std::string why = ro != o.ranks.end() && ro->second.state == RankOutcome::State::Died
                            ? ro->second.text
                            : "did not finish the case";
      failures[r] = why;
    } else if (got->first == "fail") {
      failures[r] = got->second;
    } else if (got->first == "skip") {
      skipped = true;
      skip_reason = got->second;
    }
  }
  bool timed_out = tr.timed_out && key == tr.timed_out_case;
  if (failures.empty() && !timed_out) {
    if (skipped) c.status = "skip", c.detail = skip_reason;
    return c;
  }
  c.status = "fail";
  for (const auto& l : collate(failures)) c.detail += "        " + l + "\n";
  if (timed_out) c.detail += timeout_detail(tr);  // API.md §13: with every rank's :status
  return c;
}

// The position in tr.order of the case where the run broke off (a case
// timed out, or a rank died during it), or -1 if it ran to its end.
int abort_index(const Tracker& tr, const Outcome& o) {
  if (tr.timed_out) {
    auto it = std::find(tr.order.begin(), tr.order.end(), tr.timed_out_case);
    return it == tr.order.end() ? -1 : int(it - tr.order.begin());
  }
  bool died = false;
  for (const auto& [r, ro] : o.ranks) died = died || ro.state == RankOutcome::State::Died;
  if (!died) return -1;
  for (size_t i = 0; i < tr.order.size(); ++i) {
    auto it = tr.outcomes.find(tr.order[i]);
    if (it == tr.outcomes.end() || int(it->second.size()) < tr.size) return int(i);
  }
  return -1;
}

// --trace DIR: the diagram of case `key` (failed) into DIR, named after the file, size and case.
void write_case_trace(const std::string& dir, const std::string& file, int size, const std::string& key,
                      const std::string& name, const std::map<int, launcher::ControlMsg>& replies) {
  std::string base = fs::path(file).stem().string() + "-np" + std::to_string(size) + "-" + key + "-";
  for (char ch : name) base += std::isalnum((unsigned char)ch) ? ch : '_';
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string path = (fs::path(dir) / (base.substr(0, 120) + ".txt")).string();
  std::ofstream out(path);
  out << "case '" << name << "' of " << file << " on " << size << " ranks\n"
      << trace_text(build_trace(size, replies, key), 80);
  if (!out) std::fprintf(stderr, "lumpi: cannot write %s\n", path.c_str());
}

// --trace DIR: one diagram per failing case, from the events after its mark.
void write_failed_traces(Session& s, const Tracker& tr, const Outcome& o, const std::string& dir,
                         const std::string& file) {
  std::map<int, launcher::ControlMsg> replies;
  for (const auto& key : tr.order) {
    CaseResult c = judge(key, tr, o);
    if (c.status != "fail") continue;
    if (replies.empty()) replies = s.collect_trace();
    write_case_trace(dir, file, tr.size, key, c.name, replies);
  }
}

// An error outside every case (syntax error, failing top-level code) is a failure too.
std::optional<CaseResult> file_failure(const Tracker& tr, const Outcome& o) {
  std::map<int, std::string> errors;
  for (const auto& [r, ro] : o.ranks)
    if (ro.state != RankOutcome::State::Ok) errors[r] = ro.text;
  if (errors.empty()) return std::nullopt;
  CaseResult c{"(file)", "fail", "", 0};
  for (const auto& l : collate(errors)) c.detail += "        " + l + "\n";
  if (tr.timed_out && tr.timed_out_case.empty()) c.detail += timeout_detail(tr);
  return c;
}

// What one run of a file at `tr.size` ranks, begun after `skip` cases, says about its cases.
FileRun results_of(const Tracker& tr, const Outcome& o, int skip) {
  FileRun fr;
  fr.declared = tr.declared;
  if (fr.declared && std::find(fr.declared->begin(), fr.declared->end(), tr.size) == fr.declared->end())
    return fr;  // this size only served to learn t.np
  int broke = abort_index(tr, o);
  if (broke >= 0) {
    // Cases after the broken one ran on a world being torn down: run them again.
    for (int i = 0; i <= broke; ++i) fr.cases.push_back(judge(tr.order[size_t(i)], tr, o));
    fr.resume_at = skip + broke + 1;
    return fr;
  }
  for (const auto& key : tr.order) fr.cases.push_back(judge(key, tr, o));
  if (auto c = file_failure(tr, o)) fr.cases.push_back(*c);
  return fr;
}

CheckReport g_findings;  // every world's findings in this run

// Runs `file` once on a fresh world of `size`, skipping its first `skip`
// cases (lumpi.test reads LUMPI_TEST_SKIP, inherited by the ranks).
FileRun run_once(Session::Options opts, const std::string& file, int size, double case_timeout,
                 int skip, const std::string& trace_dir) {
  opts.size = size;
  opts.timeout = 0;  // the per-case deadline below replaces the per-command one
  Tracker tr{size, case_timeout, {}, {}, {}, {}, {}, {}, false, false, {}, {}};
  setenv("LUMPI_TEST_SKIP", std::to_string(skip).c_str(), 1);
  Session s(opts);
  s.hang_after = 1e9;  // a hang shows up as the case timeout's interrupt messages
  s.on_event = [&](int r, const std::vector<std::string>& f) { tr.on_event(r, f); };
  s.check_deadline = [&] { return tr.deadline(); };
  s.on_deadline_status = [&](const std::vector<std::string>& lines) { tr.timeout_status = lines; };
  s.on_deadlock = [&](const std::vector<std::string>& lines) { tr.on_deadlock(lines); };
  if (!trace_dir.empty()) s.trace_action("on");
  Outcome o = s.run(s.all_ranks(), "script", file);
  if (!trace_dir.empty()) write_failed_traces(s, tr, o, trace_dir, file);
  for (const CheckFinding& f : s.check_report().findings()) g_findings.add(f);
  s.shutdown();
  return results_of(tr, o, skip);
}

// Runs `file` at `size` to its end, on a fresh world after each hang or death.
FileRun run_file(const Session::Options& opts, const std::string& file, int size, double case_timeout,
                 const std::string& trace_dir) {
  FileRun all;
  int skip = 0;
  for (;;) {
    FileRun part = run_once(opts, file, size, case_timeout, skip, trace_dir);
    all.declared = part.declared;
    all.cases.insert(all.cases.end(), part.cases.begin(), part.cases.end());
    if (part.resume_at < 0) return all;
    skip = part.resume_at;
  }
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default:
        if ((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t') out += ' ';
        else out += ch;
    }
  }
  return out;
}

// The runs of `file`: at each size it declares in t.np, else at opts.size.
std::vector<std::pair<int, FileRun>> runs_of(const std::string& file, const Session::Options& opts,
                                             double case_timeout, const std::string& trace_dir) {
  FileRun first = run_file(opts, file, opts.size, case_timeout, trace_dir);
  if (!first.declared) return {{opts.size, first}};
  std::vector<std::pair<int, FileRun>> runs;
  for (int n : *first.declared)
    runs.push_back({n, n == opts.size ? first : run_file(opts, file, n, case_timeout, trace_dir)});
  return runs;
}

// The cases reported so far: their counts, and their JUnit testsuites.
struct Tally {
  int passed = 0, failed = 0, skipped = 0;
  std::ostringstream xml;
};

// Prints the cases of one run (`file` at `n` ranks) and adds them to `t`, as one testsuite.
void report(const std::string& file, int n, const FileRun& fr, Tally& t) {
  std::printf("== %s  np=%d\n", file.c_str(), n);
  int f = 0, sk = 0;
  std::ostringstream suite;  // its cases; the header, with the counts, comes after
  for (const auto& c : fr.cases) {
    suite << "    <testcase classname=\"" << xml_escape(file) << "\" name=\"" << xml_escape(c.name)
          << " [np=" << n << "]\">";
    if (c.status == "pass") {
      ++t.passed;
      std::printf("   pass  %s\n", c.name.c_str());
    } else if (c.status == "skip") {
      ++t.skipped, ++sk;
      std::printf("   skip  %s (%s)\n", c.name.c_str(), c.detail.c_str());
      suite << "<skipped message=\"" << xml_escape(c.detail) << "\"/>";
    } else {
      ++t.failed, ++f;
      std::printf("   FAIL  %s\n%s", c.name.c_str(), c.detail.c_str());
      suite << "<failure message=\"failed\">" << xml_escape(c.detail) << "</failure>";
    }
    suite << "</testcase>\n";
  }
  t.xml << "  <testsuite name=\"" << xml_escape(file) << " np=" << n << "\" tests=\"" << fr.cases.size()
        << "\" failures=\"" << f << "\" skipped=\"" << sk << "\">\n"
        << suite.str() << "  </testsuite>\n";
  std::fflush(stdout);
}

bool write_junit(const std::string& path, const Tally& t) {
  std::ofstream out(path);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"" << t.passed + t.failed + t.skipped
      << "\" failures=\"" << t.failed << "\" skipped=\"" << t.skipped << "\">\n"
      << t.xml.str() << "</testsuites>\n";
  if (out) return true;
  std::fprintf(stderr, "lumpi: cannot write %s\n", path.c_str());
  return false;
}

}  // namespace

int run_tests(const Session::Options& opts, const std::vector<std::string>& paths_in, const std::string& junit,
              const std::string& trace_dir, const std::string& check_report) {
  const double case_timeout = opts.timeout > 0 ? opts.timeout : 60;
  std::vector<std::string> paths = paths_in.empty() ? std::vector<std::string>{"tests/scenarios"} : paths_in;
  Tally t;
  for (const auto& file : expand(paths))
    for (const auto& [n, fr] : runs_of(file, opts, case_timeout, trace_dir)) report(file, n, fr, t);
  std::printf("%d passed, %d failed", t.passed, t.failed);
  if (t.skipped) std::printf(", %d skipped", t.skipped);
  std::printf("\n");
  if (!g_findings.empty()) std::printf("the checks found %zu error(s) (docs/checking.md)\n", g_findings.findings().size());
  if (!junit.empty() && !write_junit(junit, t)) return 1;
  if (!check_report.empty() && !g_findings.write(check_report)) return 1;
  return t.failed || !g_findings.empty() ? 1 : 0;
}

}  // namespace lumpi::repl
