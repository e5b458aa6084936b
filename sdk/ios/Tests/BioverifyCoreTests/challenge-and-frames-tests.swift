import XCTest

@testable import BioverifyCore

final class ChallengeTimelineTests: XCTestCase {
    let timeline = ChallengeTimeline(steps: [.turnLeft, .turnRight, .blink], leadInMs: 1000, stepMs: 2000)

    func testTheLeadInComesFirstThenEachStepForItsDurationThenTheEnd() {
        XCTAssertEqual(timeline.totalMs, 7000)
        XCTAssertEqual(timeline.phase(atMs: 0), .leadIn)
        XCTAssertEqual(timeline.phase(atMs: 999), .leadIn)
        XCTAssertEqual(timeline.phase(atMs: 1000), .step(index: 0, .turnLeft))
        XCTAssertEqual(timeline.phase(atMs: 2999), .step(index: 0, .turnLeft))
        XCTAssertEqual(timeline.phase(atMs: 3000), .step(index: 1, .turnRight))
        XCTAssertEqual(timeline.phase(atMs: 6999), .step(index: 2, .blink))
        XCTAssertEqual(timeline.phase(atMs: 7000), .finished)
    }

    func testProgressRunsFromZeroToOneWithinAStepAndIsAbsentOutside() {
        XCTAssertNil(timeline.progress(atMs: 500))
        XCTAssertEqual(timeline.progress(atMs: 3000), 0)
        XCTAssertEqual(timeline.progress(atMs: 4000), 0.5)
        XCTAssertNil(timeline.progress(atMs: 7000))
    }

    func testPromptsFollowTheSessionLocale() {
        XCTAssertEqual(ChallengeStep.turnLeft.prompt(locale: "en"), "Turn your head left")
        XCTAssertEqual(ChallengeStep.blink.prompt(locale: "fr"), "Clignez des yeux")
        XCTAssertEqual(Set(ChallengeStep.allCases.map(\.rawValue)), ["TURN_LEFT", "TURN_RIGHT", "BLINK", "LOOK_UP", "LOOK_DOWN"])
    }
}

final class FrameSelectorTests: XCTestCase {
    let timeline = ChallengeTimeline(steps: [.turnLeft, .turnRight, .blink], leadInMs: 1000, stepMs: 2000)

    func frames(everyMs interval: Int, until end: Int, bytes: Int = 100) -> [LivenessFrame] {
        stride(from: 0, to: end, by: interval).map { LivenessFrame(timestampMs: $0, jpeg: Data(count: bytes) + Data([1])) }
    }

    func testA30FpsCameraGivesEvenlySpreadFramesCoveringEveryStepWithinTheServicesLimits() throws {
        let chosen = try FrameSelector(timeline: timeline).select(frames(everyMs: 33, until: 7500))
        XCTAssertTrue((FrameSelector.minFrames...FrameSelector.maxFrames).contains(chosen.count), "\(chosen.count)")
        XCTAssertEqual(chosen.count, 3 + 3 * 10)
        XCTAssertTrue(zip(chosen, chosen.dropFirst()).allSatisfy { $0.timestampMs < $1.timestampMs })
        for index in timeline.steps.indices {
            let window = timeline.window(ofStep: index)
            XCTAssertEqual(chosen.filter { window.contains($0.timestampMs) }.count, 10, "step \(index)")
        }
        XCTAssertTrue(chosen.allSatisfy { $0.timestampMs < timeline.totalMs })
    }

    func testDuplicateInstantsOversizeFramesAndFramesOutsideTheChallengeAreDropped() throws {
        var input = frames(everyMs: 100, until: 7000)
        input.append(LivenessFrame(timestampMs: 1500, jpeg: Data([9])))  // same instant as a kept frame
        input.append(LivenessFrame(timestampMs: 1550, jpeg: Data(count: FrameSelector.maxFrameBytes + 1)))
        input.append(LivenessFrame(timestampMs: -5, jpeg: Data([1])))
        input.append(LivenessFrame(timestampMs: 9000, jpeg: Data([1])))
        let chosen = try FrameSelector(timeline: timeline).select(input.shuffled())
        XCTAssertEqual(Set(chosen.map(\.timestampMs)).count, chosen.count)
        XCTAssertFalse(chosen.contains { $0.jpeg.count > FrameSelector.maxFrameBytes || $0.timestampMs < 0 || $0.timestampMs >= 7000 })
    }

    func testAStepWithNoFrameIsRefusedBeforeUploading() {
        let input = frames(everyMs: 50, until: 7000).filter { !(3000..<5000).contains($0.timestampMs) }
        assertThrows({ if case .invalidInput(let m) = $0 { return m.contains("TURN_RIGHT") } else { return false } }) {
            try FrameSelector(timeline: timeline).select(input)
        }
    }

    func testASlowCameraIsToppedUpToTheMinimumAndTooFewFramesAreRefused() throws {
        let slow = try FrameSelector(timeline: timeline, perStep: 1).select(frames(everyMs: 500, until: 7000))
        XCTAssertEqual(slow.count, FrameSelector.minFrames)
        let tooFew = [500, 1500, 3500, 5500].map { LivenessFrame(timestampMs: $0, jpeg: Data([1])) }
        assertThrows({ if case .invalidInput = $0 { return true } else { return false } }) {
            try FrameSelector(timeline: timeline).select(tooFew)
        }
    }
}
