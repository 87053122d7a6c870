// Native reference for the benchmark: trains LightGBM (built from the same sources as the
// WebAssembly module, with OpenMP) on the benchmark's binary data file through the C API,
// and prints one JSON line with wall times, the CPU time (user + system, all threads) of the
// training loop, and peak memory.
//   train DATA_FILE ROUNDS MODEL_OUT "PARAMS"
// DATA_FILE: int32 rows, int32 cols, int32 groups, float32 features[rows*cols] (row-major),
//            float32 labels[rows], int32 group sizes[groups].
#include <LightGBM/c_api.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static double cpu_ms() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

static void check(int rc, const char* what) {
  if (rc != 0) {
    std::fprintf(stderr, "%s failed: %s\n", what, LGBM_GetLastError());
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: train DATA_FILE ROUNDS MODEL_OUT PARAMS\n");
    return 2;
  }
  const int rounds = std::atoi(argv[2]);
  std::FILE* file = std::fopen(argv[1], "rb");
  if (file == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  int32_t header[3];
  if (std::fread(header, sizeof(int32_t), 3, file) != 3) return 1;
  const int32_t rows = header[0], cols = header[1], groups = header[2];
  std::vector<float> features(static_cast<size_t>(rows) * cols);
  std::vector<float> labels(rows);
  std::vector<int32_t> group_sizes(groups);
  if (std::fread(features.data(), sizeof(float), features.size(), file) != features.size()) return 1;
  if (std::fread(labels.data(), sizeof(float), labels.size(), file) != labels.size()) return 1;
  if (std::fread(group_sizes.data(), sizeof(int32_t), group_sizes.size(), file) != group_sizes.size()) return 1;
  std::fclose(file);

  const double t0 = now_ms();
  DatasetHandle dataset = nullptr;
  check(LGBM_DatasetCreateFromMat(features.data(), C_API_DTYPE_FLOAT32, rows, cols, 1, argv[4], nullptr, &dataset),
        "LGBM_DatasetCreateFromMat");
  check(LGBM_DatasetSetField(dataset, "label", labels.data(), rows, C_API_DTYPE_FLOAT32), "label");
  check(LGBM_DatasetSetField(dataset, "group", group_sizes.data(), groups, C_API_DTYPE_INT32), "group");
  BoosterHandle booster = nullptr;
  check(LGBM_BoosterCreate(dataset, argv[4], &booster), "LGBM_BoosterCreate");
  const double t1 = now_ms();
  const double c1 = cpu_ms();
  int finished = 0;
  for (int i = 0; i < rounds && !finished; ++i) {
    check(LGBM_BoosterUpdateOneIter(booster, &finished), "LGBM_BoosterUpdateOneIter");
  }
  const double t2 = now_ms();
  const double c2 = cpu_ms();
  check(LGBM_BoosterSaveModel(booster, 0, -1, 0, argv[3]), "LGBM_BoosterSaveModel");
  LGBM_BoosterFree(booster);
  LGBM_DatasetFree(dataset);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  std::printf("{\"setupMs\":%.1f,\"trainMs\":%.1f,\"trainCpuMs\":%.1f,\"peakRssKb\":%ld}\n", t1 - t0, t2 - t1, c2 - c1,
              usage.ru_maxrss);
  return 0;
}
