import Dispatch
import Foundation
import LocationCore
import Logging

/// A byte stream that reopens itself: opens its endpoint, reads it, and when the device disappears or
/// the connection fails or closes, reports it and tries again after a `Backoff` delay (reset once a
/// connection delivers data). The delays are scheduled on the engine loop, so tests can drive them
/// with virtual time; opening and reading happen on a private queue.
///
/// Every event reaches the handler inside the loop, and only while the stream is started: `stop()`
/// closes the descriptor at once, cancels a pending retry or an open in progress, and nothing is
/// delivered after it (each start, stop and attempt bumps a generation that late callbacks check).
final class ReconnectingStream: Sendable {
    enum Event {
        /// A descriptor is open (a socket connected, a device opened).
        case connected
        /// Bytes read, valid only while the handler runs. Nothing more is read until it returns, so
        /// the stream reads only as fast as the loop consumes (see `ByteStream`).
        case bytes(UnsafeRawBufferPointer)
        /// Opening failed or the stream ended or broke; a new attempt follows after `retryDelay` s.
        case disconnected(reason: String, retryDelay: Double)
        /// The stream ended for good (standard input); no new attempt.
        case ended
    }

    typealias Handler = @Sendable (Event) -> Void

    let opener: any StreamOpener

    private struct State {
        var running = false
        var generation: UInt64 = 0
        var loop: (any EngineLoop)?
        var handler: Handler?
        var stream: ByteStream?
        var retry: ScheduledWork?
        var opening: OpenCancellation?
        var backoff: Backoff
        var deliveredData = false
    }

    private let state: Locked<State>
    private let queue: DispatchQueue

    init(opener: any StreamOpener, backoff: Backoff) {
        self.opener = opener
        state = Locked(State(backoff: backoff))
        queue = DispatchQueue(label: "corelocation.stream \(opener.label)")
    }

    /// Opens the stream; call inside `loop`. Ignored when already started.
    func start(on loop: any EngineLoop, handler: @escaping Handler) {
        let generation: UInt64? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation &+= 1
            state.loop = loop
            state.handler = handler
            state.backoff.reset()
            return state.generation
        }
        guard let generation else { return }
        attempt(generation)
    }

    /// Closes at once; `farewell` is written first when connected (best effort, never blocking).
    func stop(farewell: [UInt8]? = nil) {
        let taken = state.withLock { state -> (ByteStream?, ScheduledWork?, OpenCancellation?)? in
            guard state.running else { return nil }
            state.running = false
            state.generation &+= 1
            state.loop = nil
            state.handler = nil
            defer { state.stream = nil; state.retry = nil; state.opening = nil }
            return (state.stream, state.retry, state.opening)
        }
        guard let (stream, retry, opening) = taken else { return }
        retry?.cancel()
        opening?.cancel()
        if let stream {
            if let farewell, !stream.send(farewell) {
                sourcesLogger.debug("could not write before closing", metadata: ["stream": "\(opener.label)"])
            }
            stream.close()
        }
    }

    /// Writes to the open descriptor without blocking; false when not connected or not all was written.
    func send(_ bytes: [UInt8]) -> Bool {
        guard let stream = state.withLock({ $0.running ? $0.stream : nil }) else { return false }
        return stream.send(bytes)
    }

    var isConnected: Bool { state.withLock { $0.running && $0.stream != nil } }

    // MARK: Attempts

    /// The current context when `generation` is still current.
    private func current(_ generation: UInt64) -> (loop: any EngineLoop, handler: Handler)? {
        state.withLock { state in
            guard state.running, state.generation == generation, let loop = state.loop, let handler = state.handler
            else { return nil }
            return (loop, handler)
        }
    }

    private func attempt(_ previous: UInt64) {
        let opening = OpenCancellation()
        let generation: UInt64? = state.withLock { state in
            guard state.running, state.generation == previous else { return nil }
            state.generation &+= 1
            state.opening = opening
            state.retry = nil
            state.deliveredData = false
            return state.generation
        }
        guard let generation, let loop = current(generation)?.loop else { return }
        sourcesLogger.debug("opening", metadata: ["stream": "\(opener.label)"])
        let opener = self.opener
        queue.async { [self] in
            let result: Result<OpenedDescriptor, StreamError>
            do throws(StreamError) {
                result = .success(try opener.open(opening))
            } catch {
                result = .failure(error)
            }
            loop.execute { [self] in opened(result, generation: generation) }
        }
    }

    private func opened(_ result: Result<OpenedDescriptor, StreamError>, generation: UInt64) {
        guard let (loop, handler) = current(generation) else {
            if case .success(let descriptor) = result { systemClose(descriptor.fd) }
            return
        }
        switch result {
        case .failure(let error):
            state.withLock { $0.opening = nil }
            disconnected(error.description, generation: generation)
        case .success(let descriptor):
            let stream = ByteStream(descriptor, queue: queue) { [self] event in
                loop.execute { [self] in streamEvent(event, generation: generation) }
            }
            state.withLock { state in
                state.opening = nil
                state.stream = stream
            }
            sourcesLogger.debug("opened", metadata: ["stream": "\(opener.label)"])
            handler(.connected)
        }
    }

    private func streamEvent(_ event: ByteStream.Event, generation: UInt64) {
        guard let (_, handler) = current(generation) else { return }
        switch event {
        case .bytes(let chunk):
            let stream = state.withLock { state -> ByteStream? in
                if !state.deliveredData {
                    state.deliveredData = true
                    state.backoff.reset()
                }
                return state.stream
            }
            chunk.withUnsafeBytes { handler(.bytes($0)) }
            stream?.consumed()
        case .end(let reason):
            let stream = state.withLock { state -> ByteStream? in
                defer { state.stream = nil }
                return state.stream
            }
            stream?.close()
            let why = "\(opener.label): " + (reason ?? (opener.reopensAfterEnd ? "closed" : "end of input"))
            if opener.reopensAfterEnd {
                disconnected(why, generation: generation)
            } else {
                sourcesLogger.debug("ended", metadata: ["stream": "\(opener.label)"])
                handler(.ended)
            }
        }
    }

    /// Reports the failure and schedules the next attempt.
    private func disconnected(_ reason: String, generation: UInt64) {
        guard let (loop, handler) = current(generation) else { return }
        let delay = state.withLock { $0.backoff.nextDelay() }
        let retry = loop.schedule(after: delay) { [self] in attempt(generation) }
        let keep = state.withLock { state -> Bool in
            guard state.running, state.generation == generation else { return false }
            state.retry = retry
            return true
        }
        guard keep else { return retry.cancel() }
        sourcesLogger.debug("disconnected; retrying", metadata: [
            "stream": "\(opener.label)", "reason": "\(reason)", "delay": "\(delay)",
        ])
        handler(.disconnected(reason: reason, retryDelay: delay))
    }
}
