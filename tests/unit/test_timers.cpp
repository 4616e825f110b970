// Timers: fenced phase scopes, and phase timers switched off (monitor.phase_timers).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "framework/util/timers.hpp"

namespace perksolve {
namespace {

TEST(Timers, ScopeFencesAtStartAndEndAndRecords) {
  Timers t;
  int fences = 0;
  t.set_fence([&] { ++fences; });
  { Timers::Scope s(t, "phase", 10.0, 80.0); }
  EXPECT_EQ(fences, 2);
  ASSERT_EQ(t.entries().count("phase"), 1u);
  EXPECT_EQ(t.entries().at("phase").calls, 1);
  EXPECT_DOUBLE_EQ(t.entries().at("phase").cells, 10.0);
  EXPECT_DOUBLE_EQ(t.entries().at("phase").bytes, 80.0);
}

TEST(Timers, PhasesOffNeitherFenceNorRecordButAddStillRecords) {
  Timers t;
  int fences = 0;
  t.set_fence([&] { ++fences; });
  t.set_phases_enabled(false);
  EXPECT_FALSE(t.phases_enabled());
  { Timers::Scope s(t, "phase"); }
  EXPECT_EQ(fences, 0);
  EXPECT_EQ(t.entries().count("phase"), 0u);
  t.add("setup", 0.5);
  ASSERT_EQ(t.entries().count("setup"), 1u);
  EXPECT_EQ(t.entries().at("setup").calls, 1);
}

// The only test of this executable that initialises MPI (ctest runs each test in its own process).
TEST(Timers, TableWithPhasesOffSaysSoAndSkipsUntimedPhases) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) MPI_Init(nullptr, nullptr);
  Timers t;
  t.declare("mg_smooth");
  t.set_phases_enabled(false);
  { Timers::Scope s(t, "mg_smooth"); }
  t.add("setup", 0.25);
  const std::string table = t.table(MPI_COMM_WORLD, "timers:");
  EXPECT_NE(table.find("phase timers off"), std::string::npos) << table;
  EXPECT_NE(table.find("setup"), std::string::npos) << table;
  EXPECT_EQ(table.find("mg_smooth"), std::string::npos) << table;
  Timers on;
  on.declare("mg_smooth");
  const std::string table_on = on.table(MPI_COMM_WORLD, "timers:");
  EXPECT_NE(table_on.find("mg_smooth"), std::string::npos) << table_on;  // declared phases stay listed
  EXPECT_EQ(table_on.find("phase timers off"), std::string::npos) << table_on;
  MPI_Finalize();
}

}  // namespace
}  // namespace perksolve
