// Shared by results_test.cpp and check_test.cpp: a small generated suite and in-test devices.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "../generator/file_test_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools::testing {

using generator::testing::ErrorOf;
using generator::testing::ReadAll;
using generator::testing::WriteAll;

/// A fresh temporary folder.
inline std::filesystem::path TempDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ptovec-gate-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// tquant fp32 -> s8 (50 sampled inputs x 14 controls = 700 vectors) and qparam fp32 -> u64
/// (30 vectors, no controls), binary and JSON, generated into `dir` with a manifest.
inline void GenerateSmallSuite(const std::filesystem::path& dir) {
  generator::GenerateOptions options;
  options.out_dir = dir;
  options.binary = true;
  options.json = true;
  options.sampling = {7, 50};
  options.threads = 1;
  const generator::OpDef* tquant = generator::FindOp("tquant");
  generator::GenerateSuite({{tquant, {oracle::TileDataType::FP32, oracle::TileDataType::S8}}},
                           options);
  options.out_dir = dir / "qparam";
  options.sampling = {7, 30};
  const generator::OpDef* qparam = generator::FindOp("qparam");
  generator::GenerateSuite({{qparam, {oracle::TileDataType::FP32, oracle::TileDataType::U64}}},
                           options);
}

/// The oracle as a device, with an optional fault: fault(case, answer) may change the answer.
class TestDevice : public Device {
 public:
  using Fault = std::function<void(const Case&, DeviceAnswer&)>;
  explicit TestDevice(Fault fault = {}) : fault_(std::move(fault)) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases, std::span<DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      answers[i] = {true, generator::EvaluateCase(cases[i])};
      if (fault_) fault_(cases[i], answers[i]);
      ++calls_;
    }
  }
  std::uint64_t calls() const { return calls_; }

 private:
  std::string name_ = "test-oracle";
  Fault fault_;
  std::uint64_t calls_ = 0;
};

}  // namespace ptovec::tools::testing
