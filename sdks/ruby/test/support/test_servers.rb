# frozen_string_literal: true

require "json"
require "net/http"

# Clients of the fault proxy and the HTTPS webhook receiver that the three SDK suites share
# (sdks/conformance/test-servers.mjs, started by the runner beside the runtime and named by
# SDK_FAULT_PROXY_URL). Each FaultProxy or WebhookReceiver is its own path on them, with its own script
# and records.
module TestServers
  module_function

  # A call to the servers' JSON control API.
  def control(method, path, body = nil)
    base = ENV.fetch("SDK_FAULT_PROXY_URL") do
      raise "SDK_FAULT_PROXY_URL is not set: run the tests with `npm run test:sdk:ruby` from the repository root"
    end
    uri = URI("#{base}/_control#{path}")
    request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.path, { "content-type" => "application/json" })
    request.body = JSON.generate(body) unless body.nil?
    response = Net::HTTP.start(uri.host, uri.port) { |http| http.request(request) }
    raise "test servers: #{method} #{path} answered #{response.code} #{response.body}" unless response.code.start_with?("2")

    response.body.to_s.empty? ? nil : JSON.parse(response.body)
  end
end

# A proxy in front of the runtime that records requests and injects faults. `decide` picks what happens
# to each request by its arrival index since the last reset (the request argument is always nil: the
# shared proxy runs the decisions):
#   [:forward]                          pass it to the runtime and its answer back
#   [:drop]                             pass it on, wait for the whole answer, then cut the connection
#   [:respond, status, headers, body]   answer without asking the runtime (body: a Hash as problem+json)
#   [:delay, seconds]                   wait, then forward
class FaultProxy
  Seen = Struct.new(:method, :path, :headers, :body, :at, :status, :response_headers, keyword_init: true)
  # Decisions sent for the first requests; every later one gets the decision for this index.
  SCRIPTED = 16

  attr_reader :url

  def initialize(&decide)
    made = TestServers.control("POST", "/proxies", script(decide || ->(_request, _index) { [:forward] }))
    @id = made.fetch("id")
    @url = made.fetch("url")
  end

  def decide(&block)
    TestServers.control("PUT", "/proxies/#{@id}/script", script(block))
  end

  def reset
    TestServers.control("DELETE", "/proxies/#{@id}/requests")
  end

  def requests
    TestServers.control("GET", "/proxies/#{@id}/requests").map do |r|
      Seen.new(method: r["method"], path: r["path"], headers: r["headers"], body: r["body"], at: r["at"] / 1000.0,
               status: r["status"], response_headers: r["response_headers"] || {})
    end
  end

  # Requests with this method to paths starting with `prefix` (after /api/v1).
  def to(method, prefix)
    requests.select { |s| s.method == method && s.path.delete_prefix("/api/v1").start_with?(prefix) }
  end

  def close
    TestServers.control("DELETE", "/proxies/#{@id}")
  end

  private

  def script(decide)
    { script: (0...SCRIPTED).map { |index| action(decide.call(nil, index)) }, otherwise: action(decide.call(nil, SCRIPTED)) }
  end

  def action(decision)
    kind, *args = decision
    case kind
    when :respond
      status, headers, body = args
      { kind: "respond", status: status, headers: headers || {}, body: body }
    when :delay then { kind: "delay", ms: (args.first * 1000).round }
    else { kind: kind.to_s }
    end
  end
end

# A real HTTPS webhook receiver with the certificate the runtime's test CA signed. Its answer can change
# (`behave`).
class WebhookReceiver
  Received = Struct.new(:path, :headers, :body, :at, keyword_init: true)

  def initialize(status = 200, body = "ok")
    made = TestServers.control("POST", "/receivers", { status: status, body: body })
    @id = made.fetch("id")
    @base = made.fetch("url")
  end

  def url(path = "/hook")
    "#{@base}#{path}"
  end

  # What to answer from now on.
  def behave(status, body = "")
    TestServers.control("PUT", "/receivers/#{@id}/behaviour", { status: status, body: body })
  end

  def received
    TestServers.control("GET", "/receivers/#{@id}/received").map do |r|
      Received.new(path: r["path"], headers: r["headers"], body: r["body"], at: r["at"] / 1000.0)
    end
  end

  def close
    TestServers.control("DELETE", "/receivers/#{@id}")
  end
end
