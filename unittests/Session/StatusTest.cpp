//===- StatusTest.cpp - engine errors as the command line prints them -----===//

#include "AscendPrec/Session/Status.h"

#include <gtest/gtest.h>

using namespace ascendprec::session;

TEST(Status, SuccessByDefault) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(static_cast<bool>(status));
}

TEST(Status, FormatsLikeTheCommandLine) {
  Status user = Status::user("<command line>", "--run-range names input 'x'");
  ASSERT_FALSE(user.ok());
  EXPECT_EQ(user.error().format(), "<command line>: error: --run-range names input 'x'\n");
  Status internal = Status::internal("planning produced invalid IR");
  EXPECT_EQ(internal.error().format("ascendprec"),
            "ascendprec: internal error: planning produced invalid IR\n");
  EXPECT_EQ(Status::interrupted().error().kind, Error::Kind::Interrupted);
}

TEST(Status, FileLineColumnAndDetails) {
  Error error;
  error.file = "keep.cfg";
  error.line = 3;
  error.column = 7;
  error.rule = "KD-1";
  error.message = "a node name may not be empty";
  error.details = {"first", "second"};
  EXPECT_EQ(error.format(), "keep.cfg:3:7: error: a node name may not be empty\n"
                            "  first\n  second\n");
}

TEST(Status, ErrorTextStreamsTheMessage) {
  Status status = ErrorText("<command line>") << "input '" << "x" << "' takes " << 3 << " dims";
  EXPECT_EQ(status.error().message, "input 'x' takes 3 dims");
  EXPECT_EQ(status.error().kind, Error::Kind::User);
  Status internal = ErrorText("", Error::Kind::Internal) << "oops";
  EXPECT_EQ(internal.error().kind, Error::Kind::Internal);
}
